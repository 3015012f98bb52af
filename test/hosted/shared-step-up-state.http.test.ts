/**
 * Two hosted instances of one deployment (one store, one public URL, each on its own port) as a
 * load balancer without stickiness sees them: a 2026-07-28 client's step-up retry that lands on
 * the other instance is read there, and a state minted by a deployment on another store is not.
 */
import type { Client } from '@modelcontextprotocol/client';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDirectoryStore, parseStoreKeys, type GrantStore } from '../../src/grant-store/index.js';
import { createConsentStateCodec } from '../../src/consent/index.js';
import { stepUpStateKey } from '../../src/hosted/index.js';
import { deriveStepUpStateKey } from '../../src/hosted/step-up-state-key.js';
import { SANDBOX_STAFF } from '@school-mcp/sandbox';
import {
  approveStepUp,
  connectStatelessClient,
  startHosted,
  type Hosted,
  type RetrySteering,
} from '../app/support/hosted-harness.js';
import type { HostedServer } from '../../src/hosted/hosted-server.js';

function textOf(result: unknown): string {
  return ((result as { content: { type: string; text?: string }[] }).content ?? [])
    .map((item) => item.text ?? '')
    .join('\n');
}

interface Routing {
  /** Where a `tools/call` carrying a `requestState` goes; the instance the client signed in at when absent. */
  retryTo?: string;
  /** Replaces the state the client sends back. */
  replaceState?: (state: string) => string;
  readonly statesSent: string[];
}

/** Steers a client's retries as `routing` says, recording every state sent back. */
function steeredBy(routing: Routing): RetrySteering {
  return (sent) => {
    const state = routing.replaceState?.(sent) ?? sent;
    routing.statesSent.push(state);
    return routing.retryTo === undefined ? { state } : { state, url: routing.retryTo };
  };
}

async function connectStateless(hosted: Hosted, user: string, routing: Routing): Promise<Client> {
  return (await connectStatelessClient(hosted, user, steeredBy(routing))).client;
}

describe('the step-up state key', () => {
  it('SCL-06 is derived from the store secrets for its one use: the same secrets give the same key, other secrets another, and it is not the cookie key', () => {
    const secrets = { cookieKeys: ['a-cookie-key-of-the-authorization-server'] };
    const key = deriveStepUpStateKey(secrets);
    expect(key).toHaveLength(32);
    expect(Buffer.from(deriveStepUpStateKey({ cookieKeys: [...secrets.cookieKeys] })).equals(key)).toBe(true);
    expect(Buffer.from(deriveStepUpStateKey({ cookieKeys: ['another-deployment-cookie-key'] })).equals(key)).toBe(
      false,
    );
    expect(Buffer.from(key).toString('utf8')).not.toContain(secrets.cookieKeys[0]);
    expect(Buffer.from(key).equals(Buffer.from(secrets.cookieKeys[0]!, 'utf8').subarray(0, 32))).toBe(false);
    expect(() => deriveStepUpStateKey({ cookieKeys: [] })).toThrow(RangeError);
  });

  it('SCL-06 is the same for instances that start together on an empty store: one set of secrets is created, and all use it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'school-mcp-secrets-'));
    try {
      const keys = parseStoreKeys(randomBytes(32).toString('base64'));
      if (!keys.ok) throw new Error(keys.reason);
      const stores = await Promise.all(
        [0, 1, 2].map(() =>
          openDirectoryStore({ dir: join(dir, 'store'), keyring: keys.keyring, logger: { warn: () => undefined } }),
        ),
      );
      const derived = await Promise.all(Array.from({ length: 6 }, (_, index) => stepUpStateKey(stores[index % 3]!)));
      expect(new Set(derived.map((key) => Buffer.from(key).toString('hex'))).size).toBe(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('hosted mode on two instances of one store: the 2026-07-28 step-up state', () => {
  let first: Hosted;
  /** The second instance of `first`'s deployment: its own port and store connection, the same store. */
  let second: { readonly server: HostedServer; readonly store: GrantStore };
  let elsewhere: Hosted;
  beforeAll(async () => {
    first = await startHosted({ tools: true, schoolScopes: ['account:read', 'courses:read'], instances: 2 });
    second = first.instances[1]!;
    elsewhere = await startHosted({ tools: true, schoolScopes: ['account:read', 'courses:read'] });
  });
  afterAll(async () => {
    await first?.close();
    await elsewhere?.close();
  });

  it('SCL-06 gives every instance on one store the same key, and another store another', async () => {
    expect(Buffer.from(await stepUpStateKey(first.store)).equals(Buffer.from(await stepUpStateKey(second.store)))).toBe(
      true,
    );
    expect(
      Buffer.from(await stepUpStateKey(first.store)).equals(Buffer.from(await stepUpStateKey(elsewhere.store))),
    ).toBe(false);
    // The codec itself: a state sealed under one key does not open under the other.
    const context = { mcpReq: { method: 'tools/call' }, sessionId: undefined } as never;
    const minted = await createConsentStateCodec(await stepUpStateKey(first.store)).mint(
      { v: 1, tool: 't', flow: 'f', owner: 'o', scopes: ['s'] },
      context,
    );
    expect(await createConsentStateCodec(await stepUpStateKey(second.store)).read(minted, context, 'o')).toMatchObject({
      tool: 't',
      owner: 'o',
    });
    expect(
      await createConsentStateCodec(await stepUpStateKey(elsewhere.store)).read(minted, context, 'o'),
    ).toBeUndefined();
  });

  it('SCL-06 finishes a step-up whose retry lands on the other instance: the state minted by one is read by the other, and the call runs there', async () => {
    const member = SANDBOX_STAFF[0]!;
    const routing: Routing = { retryTo: `${second.server.listenUrl}/mcp`, statesSent: [] };
    const client = await connectStateless(first, member.sub, routing);
    const prompted: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      const { url } = request.params as { url: string };
      prompted.push(url);
      expect((await approveStepUp(url, member.sub)).status).toBe(200);
      return { action: 'accept' };
    });
    try {
      const created = await client.callTool({
        name: 'create_member',
        arguments: { email: 'two.instances@example.com', name: 'Two Instances' },
      });
      expect((created as { isError?: boolean }).isError, textOf(created)).toBeFalsy();
      expect(textOf(created)).toContain('two.instances@example.com');
      expect(prompted).toHaveLength(1);
      expect(routing.statesSent).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it('HOST-26 SCL-06 still refuses, as altered, a state minted by a deployment on another store for the same person', async () => {
    const member = SANDBOX_STAFF[2]!;
    const minting: Routing = { statesSent: [] };
    const atElsewhere = await connectStateless(elsewhere, member.sub, minting);
    atElsewhere.setRequestHandler('elicitation/create', async () => ({ action: 'decline' }));
    const replaying: Routing = { statesSent: [] };
    const atFirst = await connectStateless(first, member.sub, replaying);
    atFirst.setRequestHandler('elicitation/create', async () => ({ action: 'decline' }));
    try {
      expect(
        textOf(
          await atElsewhere.callTool({
            name: 'create_member',
            arguments: { email: 'minted.elsewhere@example.com', name: 'Elsewhere' },
          }),
        ),
      ).toMatch(/declined/);
      const foreignState = minting.statesSent[0]!;
      expect(foreignState).toBeDefined();
      replaying.replaceState = () => foreignState;
      const refused = (await atFirst.callTool({
        name: 'create_member',
        arguments: { email: 'replayed.elsewhere@example.com', name: 'Replayed' },
      })) as { isError?: boolean };
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/approval state sent back was altered.*refused/);
      // Its own state is taken at the same instance, so the refusal came from the other store's key alone.
      replaying.replaceState = undefined;
      expect(
        textOf(
          await atFirst.callTool({ name: 'create_member', arguments: { email: 'honest@example.com', name: 'Honest' } }),
        ),
      ).toMatch(/declined/);
    } finally {
      await Promise.allSettled([atElsewhere.close(), atFirst.close()]);
    }
  });
});
