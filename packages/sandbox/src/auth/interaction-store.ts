/**
 * Authorization requests waiting for the user's decision on the consent page. Each carries the
 * CSRF token its form must return, and can be decided once.
 */
import { randomBytes } from 'node:crypto';
import type { AuthorizationRequest } from './authorization-request.js';
import { equalSecrets } from './constant-time.js';

/** How long a consent page stays answerable. */
const INTERACTION_TTL_SECONDS = 600;

export interface Interaction {
  readonly id: string;
  readonly csrfToken: string;
  readonly request: AuthorizationRequest;
  readonly expiresAt: number;
}

export class InteractionStore {
  readonly #now: () => number;
  readonly #pending = new Map<string, Interaction>();

  constructor(nowSeconds: () => number) {
    this.#now = nowSeconds;
  }

  create(request: AuthorizationRequest): Interaction {
    const now = this.#now();
    for (const [id, interaction] of this.#pending) if (now >= interaction.expiresAt) this.#pending.delete(id);
    const interaction: Interaction = {
      id: randomBytes(16).toString('base64url'),
      csrfToken: randomBytes(32).toString('base64url'),
      request,
      expiresAt: now + INTERACTION_TTL_SECONDS,
    };
    this.#pending.set(interaction.id, interaction);
    return interaction;
  }

  /**
   * Removes and returns the interaction when it is pending and both the form's and the cookie's
   * CSRF values equal its token; a wrong token leaves it pending for the real form.
   */
  take(id: string, formToken: string, cookieToken: string | undefined): Interaction | undefined {
    const interaction = this.#pending.get(id);
    if (!interaction || this.#now() >= interaction.expiresAt) return undefined;
    if (
      !equalSecrets(formToken, interaction.csrfToken) ||
      cookieToken === undefined ||
      !equalSecrets(cookieToken, interaction.csrfToken)
    )
      return undefined;
    this.#pending.delete(id);
    return interaction;
  }
}
