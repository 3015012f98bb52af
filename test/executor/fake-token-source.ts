/** An `AccessTokenSource` that hands out canary tokens and counts what it was asked. */
import type { AccessTokenRequest, AccessTokenSource } from '../../src/executor/access-token-source.js';

export const FIRST_TOKEN = 'AT-CANARY-first-4f1c9a';
export const REFRESHED_TOKEN = 'AT-CANARY-refreshed-7d2e0b';

export interface FakeTokenSource extends AccessTokenSource {
  readonly accessRequests: AccessTokenRequest[];
  readonly rejectedTokens: string[];
}

export function fakeTokenSource(overrides: Partial<AccessTokenSource> = {}): FakeTokenSource {
  const accessRequests: AccessTokenRequest[] = [];
  const rejectedTokens: string[] = [];
  return {
    accessRequests,
    rejectedTokens,
    accessToken: async (request) => {
      accessRequests.push(request);
      return overrides.accessToken ? overrides.accessToken(request) : FIRST_TOKEN;
    },
    refreshAfterRejection: async (rejected, signal) => {
      rejectedTokens.push(rejected);
      return overrides.refreshAfterRejection ? overrides.refreshAfterRejection(rejected, signal) : REFRESHED_TOKEN;
    },
  };
}
