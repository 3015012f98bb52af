/**
 * What this process does next about a consent flow another process runs, from what its consent
 * lock shows. Pure: the caller reads the lock, judges its holder alive or not, and carries the
 * step out.
 */
import type { TokenSet } from '../oauth/index.js';

/** The note the holder of the consent lock keeps on it (`consent-coordinator.ts` writes it). */
type HolderNote = Readonly<Record<string, unknown>>;

/** How long a joining process waits for the holder to write its link before joining without one. */
export const LINK_NOTE_WAIT_MS = 5_000;

export interface JoinView {
  /** The lock's holder, `undefined` once no process holds it. */
  readonly holder: { readonly note?: HolderNote } | undefined;
  /** How long this process has waited for the holder's link so far. */
  readonly waitedMs: number;
  /** What this process wants, for a holder that did not say what its flow asks for. */
  readonly scopes: readonly string[];
  /** When this process began to wait, for a holder that did not say when its flow started. */
  readonly since: number;
}

export type JoinStep =
  /** The holder let go: its flow is over, and what it stored is the answer. */
  | { readonly kind: 'read-outcome' }
  /** The holder writes its link once its listener is bound: look again a moment later. */
  | { readonly kind: 'wait-for-link' }
  /**
   * The browser came back to the holder's link, so the link is dead; the holder still exchanges
   * the code. Wait until it lets go, then read what it stored.
   */
  | { readonly kind: 'await-release' }
  /** Join the holder's flow: show its link (when it wrote one) and watch the store. */
  | {
      readonly kind: 'join';
      readonly url?: string;
      readonly scopes: readonly string[];
      readonly startedAt: number;
    };

export function joinStep(view: JoinView): JoinStep {
  const { holder } = view;
  if (holder === undefined) return { kind: 'read-outcome' };
  const note = holder.note;
  if (typeof note?.['url'] !== 'string' && view.waitedMs < LINK_NOTE_WAIT_MS) return { kind: 'wait-for-link' };
  if (note?.['answered'] === true) return { kind: 'await-release' };
  const url = note?.['url'];
  const scopes = note?.['scopes'];
  const startedAt = note?.['startedAt'];
  return {
    kind: 'join',
    ...(typeof url === 'string' ? { url } : {}),
    scopes: isScopeList(scopes) ? scopes : view.scopes,
    startedAt: typeof startedAt === 'number' ? startedAt : view.since,
  };
}

export interface WatchView {
  /** Tokens in the store that cover what this process wants, if any. */
  readonly covering: TokenSet | undefined;
  /** Some process still holds the consent lock. */
  readonly held: boolean;
  /** That holder died or outlived the longest flow. */
  readonly stale: boolean;
}

/** While joined to another process's flow: done, its flow is over (read what it left), or look again. */
export type WatchStep =
  | { readonly kind: 'done'; readonly tokens: TokenSet }
  | { readonly kind: 'read-outcome' }
  | { readonly kind: 'poll' };

export function watchStep(view: WatchView): WatchStep {
  if (view.covering !== undefined) return { kind: 'done', tokens: view.covering };
  if (!view.held || view.stale) return { kind: 'read-outcome' };
  return { kind: 'poll' };
}

/** The scopes a lock holder's note names, when they are a list of strings: the note is read from a file. */
function isScopeList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((scope) => typeof scope === 'string');
}
