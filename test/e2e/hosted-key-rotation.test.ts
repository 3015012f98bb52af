/**
 * A store key rotation as an operator does it, with the real binary: `school-mcp --hosted` on a
 * directory store under key A with a person signed in; restarted under "B,A"; `school-mcp store
 * keys` and `store reseal` run while it serves; A dropped; the person's calls still work. And what
 * happens when A is dropped too soon: that person's `/mcp` answers 401 with the challenge (their
 * client signs in again), never 500; and a store whose authorization server secrets no key given
 * opens stops the start, naming that record, until `store reset-secrets`.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { storeKeyId } from '../../src/grant-store/index.js';
import { SANDBOX_STAFF, startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { freePort } from '../helpers/free-port.js';
import { MAIN_JS } from '../helpers/mcp-stdio.js';
import { describeWithRedis, startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { collectLines, type LineCollector } from '../helpers/stderr-lines.js';
import { exchange, registerMcpClient, signIn, type Hosted } from '../app/support/hosted-harness.js';

interface Instance {
  readonly child: ChildProcess;
  readonly lines: LineCollector;
  readonly exited: Promise<number | null>;
}

interface Deployment {
  readonly publicUrl: string;
  /** `--store`: a directory or a Redis URL. */
  readonly store: string;
  readonly env: Record<string, string>;
  readonly args: string[];
}

const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function newKey(): { text: string; id: string } {
  const bytes = randomBytes(32);
  return { text: bytes.toString('base64'), id: storeKeyId(bytes) };
}

function spawnHosted(deployment: Deployment, keys: string): Instance {
  const port = new URL(deployment.publicUrl).port;
  const child = spawn(process.execPath, [MAIN_JS, '--hosted', '--port', port, ...deployment.args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...deployment.env, SCHOOL_MCP_STORE_KEY: keys },
  });
  running.push(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, lines: collectLines(child.stderr), exited };
}

async function startHosted(deployment: Deployment, keys: string): Promise<Instance> {
  const instance = spawnHosted(deployment, keys);
  const ended = instance.exited.then((code) =>
    Promise.reject(
      new Error(`school-mcp --hosted exited with ${code} before serving:\n${instance.lines.stderr.join('\n')}`),
    ),
  );
  await Promise.race([instance.lines.waitForLine(/serving hosted/, 90_000), ended]);
  // Answered only once the event loop runs again, after the start has set its SIGTERM handler: a
  // SIGTERM sent right after the line could otherwise meet Node's default action.
  expect((await fetch(`${deployment.publicUrl}/healthz`)).status).toBe(200);
  return instance;
}

async function stop(instance: Instance): Promise<void> {
  instance.child.kill('SIGTERM');
  expect(await instance.exited).toBe(0);
}

/** `school-mcp store …` as the operator runs it: its stdout, stderr and exit code. */
async function storeCommand(
  deployment: Deployment,
  keys: string,
  ...args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [MAIN_JS, 'store', ...args, '--store', deployment.store], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...deployment.env, SCHOOL_MCP_STORE_KEY: keys },
  });
  running.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('close', (exit) => resolve(exit)));
  return { code, stdout, stderr };
}

function textOf(result: unknown): string {
  return ((result as { content: { text?: string }[] }).content ?? []).map((item) => item.text ?? '').join('\n');
}

/** who_am_i over the MCP SDK's client, with the person's access token. */
async function whoAmI(publicUrl: string, accessToken: string): Promise<string> {
  const client = new Client({ name: 'key-rotation', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${publicUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${accessToken}` } },
    }),
  );
  try {
    return textOf(await client.callTool({ name: 'who_am_i', arguments: {} }));
  } finally {
    await client.close();
  }
}

function initialize(publicUrl: string, accessToken: string): Promise<Response> {
  return fetch(`${publicUrl}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${accessToken}`,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'key-rotation', version: '1.0.0' },
      },
    }),
  });
}

/** Signs `user` in through a fresh MCP client registration and returns the client's access token. */
async function signedIn(publicUrl: string, user: string): Promise<string> {
  const client = await registerMcpClient(publicUrl);
  const { code, verifier } = await signIn({ base: publicUrl } as Hosted, client, user);
  const tokens = await exchange(publicUrl, client, code, verifier);
  expect(tokens.status).toBe(200);
  return String(tokens.body.access_token);
}

/**
 * The rotation as docs/operations.md tells it: the new key first, `store keys`, `store reseal` while an
 * instance serves, the report (N under A, then 0), A dropped, and the person's calls still work.
 */
async function rotateWithReseal(target: Deployment): Promise<void> {
  const [a, b] = [newKey(), newKey()];
  const member = SANDBOX_STAFF[1]!;

  const first = await startHosted(target, a.text);
  const token = await signedIn(target.publicUrl, member.sub);
  expect(await whoAmI(target.publicUrl, token)).toContain(member.name);
  await stop(first);

  const rotating = await startHosted(target, `${b.text},${a.text}`);
  const counted = await storeCommand(target, `${b.text},${a.text}`, 'keys', '--json');
  expect(counted.code, counted.stderr).toBe(0);
  const before = JSON.parse(counted.stdout) as {
    before: { keys: { keyId: string; records: number }[]; underOldKeys: number };
  };
  const underA = before.before.keys.find((key) => key.keyId === a.id)!.records;
  expect(underA).toBeGreaterThan(2);
  expect(before.before.underOldKeys).toBe(underA);

  // Run while the instance serves.
  const resealed = await storeCommand(target, `${b.text},${a.text}`, 'reseal');
  expect(resealed.code, resealed.stderr).toBe(0);
  expect(resealed.stdout).toContain(`old key ${a.id}: ${underA} records`);
  expect(resealed.stdout).toMatch(
    new RegExp(
      `resealed ${underA} records with the current key; counted again:\\n  current key ${b.id}: \\d+ records\\n  old key ${a.id}: 0 records`,
    ),
  );
  expect(resealed.stdout).toContain('no record that opens is under an old key');
  expect(resealed.stdout).not.toContain(member.sub);
  expect(await whoAmI(target.publicUrl, token)).toContain(member.name);
  await stop(rotating);

  const afterDrop = await startHosted(target, b.text);
  expect(await whoAmI(target.publicUrl, token)).toContain(member.name);
  const left = await storeCommand(target, b.text, 'keys');
  expect(left.code).toBe(0);
  expect(left.stdout).not.toContain('cannot be read');
  await stop(afterDrop);
  expect(afterDrop.lines.stderr.join('\n')).not.toMatch(/read as absent/);
}

const homes: string[] = [];
afterAll(async () => {
  await Promise.all(homes.splice(0).map((home) => rm(home, { recursive: true, force: true })));
});

/** A hosted deployment on its own port and store (a fresh directory, or a Redis with a password). */
async function deployment(sandbox: RunningSandbox, redis?: { url: string; password: string }): Promise<Deployment> {
  const home = await mkdtemp(join(tmpdir(), 'school-mcp-rotation-e2e-'));
  homes.push(home);
  const publicUrl = `http://127.0.0.1:${await freePort()}`;
  const integration = sandbox.registerIntegration({
    clientName: 'school-mcp (key rotation)',
    redirectUris: [`${publicUrl}/oauth/callback`],
  });
  const store = redis?.url ?? join(home, 'store');
  return {
    publicUrl,
    store,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      SCHOOL_MCP_CONFIG_DIR: join(home, 'config'),
      SCHOOL_MCP_CLIENT_SECRET: integration.clientSecret,
      ...(redis === undefined ? {} : { SCHOOL_MCP_REDIS_PASSWORD: redis.password }),
    },
    args: ['--public-url', publicUrl, '--school', sandbox.url, '--client-id', integration.clientId, '--store', store],
  };
}

describe('a store key rotation on a directory store', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('ST-12 ST-13 HST-03 reseals every record under the new key while serving, reports none left under the old one, and the person keeps working once it is dropped', async () => {
    await rotateWithReseal(await deployment(sandbox));
  }, 240_000);

  it('ST-10 answers 401 with the challenge, never 500, to a person whose records were sealed with a dropped key, and warns once naming the namespace', async () => {
    const target = await deployment(sandbox);
    const [a, b] = [newKey(), newKey()];
    const first = await startHosted(target, a.text);
    const token = await signedIn(target.publicUrl, SANDBOX_STAFF[1]!.sub);
    await stop(first);
    // A restart under "B,A" reseals the server's own secrets as it reads them, but not the person's records.
    await stop(await startHosted(target, `${b.text},${a.text}`));

    const tooSoon = await startHosted(target, b.text);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const answer = await initialize(target.publicUrl, token);
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toMatch(
        /^Bearer .*error="invalid_token".*resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource/,
      );
    }
    const warnings = tooSoon.lines.stderr.filter((line) => /read as absent/.test(line));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('namespace="oidc-access-token"');
    expect(warnings[0]).toContain(a.id);
    expect(warnings[0]).not.toContain(token);
    // Signing in again works under the new key alone.
    const again = await signedIn(target.publicUrl, SANDBOX_STAFF[1]!.sub);
    expect(await whoAmI(target.publicUrl, again)).toContain(SANDBOX_STAFF[1]!.name);
    await stop(tooSoon);
  }, 240_000);

  it('ST-11 stops the start naming the secrets record when no key given opens it, and starts again after store reset-secrets', async () => {
    const target = await deployment(sandbox);
    const [a, c] = [newKey(), newKey()];
    await stop(await startHosted(target, a.text));

    const refused = spawnHosted(target, c.text);
    expect(await refused.exited).toBe(1);
    const stderr = refused.lines.stderr.join('\n');
    expect(stderr).toContain("The authorization server's own secrets record (hosted-secrets/authorization-server)");
    expect(stderr).toContain(a.id);
    expect(stderr).toMatch(/SCHOOL_MCP_STORE_KEY="NEW,OLD"/);
    expect(stderr).toContain('school-mcp store reset-secrets');
    expect(stderr).toContain('[STORE_RECORD_UNREADABLE]');

    // A reset refuses secrets that open; under the lost key's successor, it removes them.
    const kept = await storeCommand(target, a.text, 'reset-secrets');
    expect(kept.code).toBe(1);
    expect(kept.stdout).toContain('nothing was reset');
    const reset = await storeCommand(target, c.text, 'reset-secrets');
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stdout).toContain("removed the authorization server's secrets record");
    await stop(await startHosted(target, c.text));
  }, 240_000);
});

describeWithRedis('a store key rotation on a Redis store', () => {
  const password = randomBytes(16).toString('hex');
  let sandbox: RunningSandbox;
  let redis: RedisServer;
  beforeAll(async () => {
    sandbox = await startSandbox();
    redis = await startRedisServer({ password });
  });
  afterAll(async () => {
    await sandbox?.close();
    await redis?.close();
  });

  it('ST-12 ST-13 HST-08 reseals every record found with SCAN while serving, reports none left under the old key, and the person keeps working once it is dropped', async () => {
    await rotateWithReseal(await deployment(sandbox, { url: redis.url, password }));
  }, 240_000);
});
