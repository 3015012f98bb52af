/**
 * Three hosted instances on one store and one sandbox school, as behind a load balancer: many
 * calls at once, on every instance, for one person whose school token expired or was refused.
 * The school counts what reaches it: one refresh per rotation, and never a rotated-out refresh
 * token (which would revoke the person's whole grant).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHOOL_GRANTS } from '../../src/hosted/index.js';
import { AUTH_PATHS, SANDBOX_STAFF } from '@school-mcp/sandbox';
import { describeWithRedis, startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import {
  exchange,
  registerMcpClient,
  signIn,
  startHosted,
  type Hosted,
  type HostedOptions,
} from '../app/support/hosted-harness.js';

const INSTANCES = 3;
const CALLS_PER_INSTANCE = 6;
const ROTATIONS = 3;

interface StoredGrant {
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly expiresAt: number;
}

function textOf(result: unknown): string {
  return ((result as { content: { type: string; text?: string }[] }).content ?? [])
    .map((item) => item.text ?? '')
    .join('\n');
}

interface Cluster {
  readonly hosted: Hosted;
  readonly clients: Client[];
}

const member = SANDBOX_STAFF[1]!;

async function startCluster(options: HostedOptions): Promise<Cluster> {
  // who_am_i answers from the stored grant; list_courses needs the school token (courses:read).
  const hosted = await startHosted({
    tools: true,
    schoolScopes: ['account:read', 'courses:read'],
    instances: INSTANCES,
    ...options,
  });
  const registered = await registerMcpClient(hosted.base);
  const { code, verifier } = await signIn(hosted, registered, member.sub);
  const token = String((await exchange(hosted.base, registered, code, verifier)).body.access_token);
  const clients: Client[] = [];
  for (const instance of hosted.instances) {
    const client = new Client({ name: 'shared-refresh-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${instance.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(client);
  }
  return { hosted, clients };
}

async function stopCluster(cluster: Cluster | undefined): Promise<void> {
  if (cluster === undefined) return;
  await Promise.allSettled(cluster.clients.map((client) => client.close()));
  await cluster.hosted.close();
}

/** Every instance's client makes its calls at once; each is an API call with the person's school token and must succeed. */
async function callEverywhereAtOnce(cluster: Cluster): Promise<void> {
  const calls = cluster.clients.flatMap((client) =>
    Array.from({ length: CALLS_PER_INSTANCE }, () => client.callTool({ name: 'list_courses', arguments: {} })),
  );
  for (const result of await Promise.all(calls))
    expect((result as { isError?: boolean }).isError, textOf(result)).toBeFalsy();
}

async function storedGrant(hosted: Hosted): Promise<StoredGrant> {
  return (await hosted.instances[INSTANCES - 1]!.store.read(SCHOOL_GRANTS, member.sub)) as unknown as StoredGrant;
}

/** The school ends the access token early (RFC 7009), so the API refuses it and every call must refresh after a 401. */
async function revokeAccessTokenAtSchool(hosted: Hosted, accessToken: string): Promise<void> {
  const response = await fetch(`${hosted.sandbox.url}${AUTH_PATHS.revocation}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      token: accessToken,
      token_type_hint: 'access_token',
      client_id: hosted.integration.clientId,
      client_secret: hosted.integration.clientSecret,
    }),
  });
  expect(response.status).toBe(200);
}

async function expectOneRefreshPerRotation(cluster: Cluster): Promise<void> {
  const { hosted } = cluster;
  await callEverywhereAtOnce(cluster);
  expect(hosted.sandbox.stats()).toEqual({ refreshGrants: 0, refreshTokenReuses: 0, reusedBy: [] });
  const seen = new Set<string>();
  for (let rotation = 1; rotation <= ROTATIONS; rotation += 1) {
    const before = await storedGrant(hosted);
    seen.add(before.refreshToken);
    // Expired an hour ago, as seen by every instance at its next read.
    await hosted.store.write(SCHOOL_GRANTS, member.sub, { ...before, expiresAt: Math.floor(Date.now() / 1000) - 3600 });
    await callEverywhereAtOnce(cluster);
    expect(hosted.sandbox.stats()).toEqual({ refreshGrants: rotation, refreshTokenReuses: 0, reusedBy: [] });
    const after = await storedGrant(hosted);
    expect(seen.has(after.refreshToken)).toBe(false);
    expect(after.expiresAt).toBeGreaterThan(Math.floor(Date.now() / 1000) + 600);
  }
  const refused = await storedGrant(hosted);
  await revokeAccessTokenAtSchool(hosted, refused.accessToken);
  await callEverywhereAtOnce(cluster);
  expect(hosted.sandbox.stats()).toEqual({ refreshGrants: ROTATIONS + 1, refreshTokenReuses: 0, reusedBy: [] });
  expect((await storedGrant(hosted)).accessToken).not.toBe(refused.accessToken);
  // The family lives on: a call after all of it still runs without a new refresh or sign-in.
  await callEverywhereAtOnce(cluster);
  expect(hosted.sandbox.stats()).toEqual({ refreshGrants: ROTATIONS + 1, refreshTokenReuses: 0, reusedBy: [] });
}

describeWithRedis('hosted mode on three instances sharing Redis: school refreshes', () => {
  let redis: RedisServer;
  let cluster: Cluster | undefined;
  beforeAll(async () => {
    redis = await startRedisServer();
    cluster = await startCluster({ redisUrl: redis.url });
  });
  afterAll(async () => {
    await stopCluster(cluster);
    await redis?.close();
  });

  it(`SCL-12 sends one refresh per rotation to the school for ${INSTANCES * CALLS_PER_INSTANCE} calls at once on ${INSTANCES} instances, never a rotated-out refresh token`, async () => {
    await expectOneRefreshPerRotation(cluster!);
  });
});

describe('hosted mode on three instances sharing one store directory: school refreshes', () => {
  let cluster: Cluster | undefined;
  beforeAll(async () => {
    cluster = await startCluster({});
  });
  afterAll(async () => {
    await stopCluster(cluster);
  });

  it(`SCL-12 sends one refresh per rotation to the school for ${INSTANCES * CALLS_PER_INSTANCE} calls at once on ${INSTANCES} instances, never a rotated-out refresh token`, async () => {
    await expectOneRefreshPerRotation(cluster!);
  });
});
