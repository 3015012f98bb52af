/**
 * Scripted parts for the consent caller's unit tests: an executor that answers from a list, a
 * broker whose flow ends when the test says so, and a request context that records what the
 * caller sent to the client.
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import { SchoolMcpError } from '../../../src/errors.js';
import type { ExecutionOutcome } from '../../../src/executor/index.js';
import type { ConsentBroker, ConsentOutcome, PendingConsent } from '../../../src/consent/index.js';
import type { ClientConnection } from '../../../src/server/index.js';

export const CALL = { toolName: 'create_coupon', method: 'POST', pathTemplate: '/api/v1/coupons' };
export const OK: ExecutionOutcome = {
  kind: 'response',
  call: CALL,
  status: 201,
  contentType: 'application/json',
  content: { kind: 'json', value: { id: 'c1' } },
  byteLength: 11,
  truncated: false,
};
export const PENDING_ERROR = new SchoolMcpError('OAUTH_CONSENT_PENDING', 'pending');
export const CONSENT: PendingConsent = {
  url: 'https://school.example/oauth/authorize?state=s1',
  scopes: ['coupons:write', 'openid'],
  newScopes: ['coupons:write'],
  startedAt: 0,
  expiresAt: Date.now() + 300_000,
};

export function insufficientScope(scopes: string[]): ExecutionOutcome {
  const challenge = { error: 'insufficient_scope', scope: scopes };
  return {
    kind: 'insufficient_scope',
    call: CALL,
    requiredScopes: scopes,
    scopeSource: 'challenge',
    challenge,
    response: { ...OK, status: 403, challenge },
  } as ExecutionOutcome;
}

/** A broker whose flows end when the test says so. */
export function scriptedBroker(overrides: Partial<ConsentBroker> = {}) {
  const log = { stepUps: [] as string[][], declined: 0, opened: 0 };
  let finish: (outcome: ConsentOutcome) => void = () => undefined;
  const outcome = new Promise<ConsentOutcome>((resolve) => (finish = resolve));
  const broker: ConsentBroker = {
    pendingOf: (error) => (error === PENDING_ERROR ? CONSENT : undefined),
    async stepUp(scopes) {
      log.stepUps.push([...scopes]);
      return CONSENT;
    },
    outcome: () => outcome,
    async decline() {
      log.declined += 1;
      finish({ kind: 'denied' });
    },
    canOpenBrowser: () => false,
    async openBrowser() {
      log.opened += 1;
    },
    ...overrides,
  };
  return { broker, log, finish };
}

export function scriptedExecutor(outcomes: ExecutionOutcome[]) {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    execute: async () => outcomes[Math.min(calls++, outcomes.length - 1)]!,
  };
}

export interface ContextOptions {
  readonly progressToken?: number;
  readonly sessionId?: string;
  readonly requestState?: string;
  readonly inputResponses?: Record<string, unknown>;
  /** The client's answer to a URL elicitation; it sees the timeout the caller set. */
  readonly elicit?: (options: { readonly timeout?: number }) => Promise<{ action: 'accept' | 'decline' | 'cancel' }>;
}

export function context(options: ContextOptions = {}) {
  const notices: unknown[] = [];
  /** `Date.now()` at each notice, fake under fake timers. */
  const noticedAt: number[] = [];
  const elicited: unknown[] = [];
  const ctx = {
    ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
    mcpReq: {
      id: 1,
      method: 'tools/call',
      signal: new AbortController().signal,
      ...(options.progressToken === undefined ? {} : { _meta: { progressToken: options.progressToken } }),
      ...(options.inputResponses === undefined ? {} : { inputResponses: options.inputResponses }),
      requestState: () => options.requestState,
      notify: async (notice: unknown) => {
        notices.push(notice);
        noticedAt.push(Date.now());
      },
      elicitInput: async (params: unknown, requestOptions: { readonly timeout?: number } = {}) => {
        elicited.push(params);
        return (await options.elicit?.(requestOptions)) ?? { action: 'accept' };
      },
    },
  } as unknown as ServerContext;
  return { ctx, notices, noticedAt, elicited };
}

/** A client of this era that declared URL elicitation or not, on the era's latest revision unless told. */
export function connection(
  era: 'sessionful' | 'stateless',
  url: boolean,
  revision = era === 'stateless' ? '2026-07-28' : '2025-11-25',
): ClientConnection & { completed: string[] } {
  const completed: string[] = [];
  return {
    completed,
    era: () => era,
    revision: () => revision,
    capabilities: () => (url ? { elicitation: { url: {} } } : {}),
    elicitationComplete: async (id) => void completed.push(id),
  };
}
