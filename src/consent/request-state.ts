/**
 * The state a 2026-07-28 input-required result hands to the client and gets back on the retry.
 * It comes back as attacker-controlled input, so it is sealed with HMAC-SHA256 under a key made
 * at launch, expires with the consent flow, and is bound to the MCP session that asked (over
 * HTTP a state minted for one session is refused in another). It names the flow by a digest of
 * its link, never by the link itself. Hosted mode has no session on stateless connections, so it
 * also seals the person it was minted for (`owner`) and refuses it for anyone else.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createRequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';

interface ConsentState {
  readonly v: 1;
  /** The tool the consent was asked for. */
  readonly tool: string;
  /** `flowId(url)` of the consent flow the user was shown. */
  readonly flow: string;
  /** The person the state was minted for, when one process serves many. */
  readonly owner?: string;
  /** The scopes the flow must grant before the call runs. */
  readonly scopes?: readonly string[];
}

export interface ConsentStateCodec {
  mint(state: ConsentState, context: ServerContext): Promise<string>;
  /**
   * The verified state, or `undefined` when it was altered, expired, or minted for another
   * session or for another `owner` than this one.
   */
  read(wire: string, context: ServerContext, owner?: string): Promise<ConsentState | undefined>;
}

/** Consent flows live at most this long; the state need not outlive them. */
const STATE_TTL_SECONDS = 15 * 60;

export function createConsentStateCodec(key: Uint8Array = randomBytes(32)): ConsentStateCodec {
  const codec = createRequestStateCodec<ConsentState>({
    key,
    ttlSeconds: STATE_TTL_SECONDS,
    bind: (context) => `${context.mcpReq.method}\0${context.sessionId ?? ''}`,
  });
  return {
    mint: (state, context) => codec.mint(state, context),
    async read(wire, context, owner) {
      try {
        const state = await codec.verify(wire, context);
        return isConsentState(state) && state.owner === owner ? state : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

/** A short, stable name for a flow: the link carries `state`, so no two flows share it. */
export function flowId(url: string): string {
  return createHash('sha256').update(url).digest('base64url').slice(0, 22);
}

function isJsonObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isConsentState(value: unknown): value is ConsentState {
  if (!isJsonObject(value)) return false;
  const { v, tool, flow, owner, scopes } = value;
  return (
    v === 1 &&
    typeof tool === 'string' &&
    typeof flow === 'string' &&
    (owner === undefined || typeof owner === 'string') &&
    (scopes === undefined || (Array.isArray(scopes) && scopes.every((scope) => typeof scope === 'string')))
  );
}
