/**
 * The executor against real loopback servers: where the bearer token goes, redirects, 401
 * refresh-and-retry, 403 insufficient_scope, and the canary sweep over everything observable.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createExecutor, toToolResult, type ExecutionOutcome, type Executor } from '../../src/executor/index.js';
import { createHttpClient } from '../../src/executor/http-client.js';
import { SchoolMcpError } from '../../src/errors.js';
import { createLogger } from '../../src/log.js';
import { fakeTokenSource, FIRST_TOKEN, REFRESHED_TOKEN, type FakeTokenSource } from './fake-token-source.js';
import { createCoupon, operation, parameter, publicOperation } from './operation-fixtures.js';
import { json, startRecordingServer, type RecordingServer } from './recording-server.js';

let api: RecordingServer;
let elsewhere: RecordingServer;
let tokens: FakeTokenSource;
let executor: Executor;
let logLines: string[];
let observed: unknown[];

function start(overrides: Parameters<typeof fakeTokenSource>[0] = {}) {
  tokens = fakeTokenSource(overrides);
  executor = createExecutor({
    apiBaseUrl: api.origin,
    tokens,
    logger: createLogger({ level: 'debug', write: (line) => logLines.push(line) }),
  });
}

async function run(...args: Parameters<Executor['execute']>): Promise<ExecutionOutcome> {
  const outcome = await executor.execute(...args);
  observed.push(outcome, toToolResult(outcome));
  return outcome;
}

const getCourse = operation();

beforeEach(async () => {
  api = await startRecordingServer();
  elsewhere = await startRecordingServer();
  logLines = [];
  observed = [];
  start();
});

afterEach(async () => {
  // LOG-01: tokens may appear in the Authorization header to the API origin, nowhere else.
  const visible = [
    ...logLines,
    ...observed.map((value) =>
      JSON.stringify(value, (_key, item: unknown) =>
        item instanceof Error ? { message: item.message, hint: (item as SchoolMcpError).hint } : item,
      ),
    ),
    ...api.requests.map((request) => request.url),
    ...elsewhere.requests.map((request) => JSON.stringify(request)),
  ].join('\n');
  expect(visible).not.toContain('AT-CANARY');
  await executor.close();
  await api.close();
  await elsewhere.close();
});

describe('API-01 the bearer token goes to the API origin only', () => {
  it('asks for a token before calling a protected operation, and sends it as a bearer header', async () => {
    api.handle((_request, response) => json(response, 200, { id: 'c1' }));
    const outcome = await run(getCourse, { course_id: 'c1' });

    expect(outcome).toMatchObject({ kind: 'response', status: 200, content: { kind: 'json', value: { id: 'c1' } } });
    expect(
      tokens.accessRequests.map(({ scopeAlternatives, requiredScopes }) => ({ scopeAlternatives, requiredScopes })),
    ).toEqual([{ scopeAlternatives: [['courses:read']], requiredScopes: ['courses:read'] }]);
    expect(api.requests.map((request) => request.headers.authorization)).toEqual([`Bearer ${FIRST_TOKEN}`]);
  });

  it('sends a public operation without a token and without asking for one', async () => {
    api.handle((_request, response) => json(response, 200, []));
    await run(publicOperation(), {});
    expect(tokens.accessRequests).toHaveLength(0);
    expect(api.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('asks for a token for a security requirement without scopes ([[]])', async () => {
    api.handle((_request, response) => json(response, 200, {}));
    await run(operation({ scopeAlternatives: [[]], requiredScopes: [] }), { course_id: '1' });
    expect(api.requests[0]?.headers.authorization).toBe(`Bearer ${FIRST_TOKEN}`);
  });

  it('API-05 an argument cannot replace the Authorization header', async () => {
    api.handle((_request, response) => json(response, 200, {}));
    const sneaky = operation({
      parameters: [
        parameter({ name: 'course_id', in: 'path' }),
        parameter({ name: 'Authorization', in: 'header', argument: 'auth' }),
      ],
    });
    await run(sneaky, { course_id: '1', auth: 'Bearer attacker' });
    expect(api.requests[0]?.headers.authorization).toBe(`Bearer ${FIRST_TOKEN}`);
  });

  it('refuses, before the network, a request with credentials aimed at another origin', async () => {
    const client = createHttpClient({ apiOrigin: api.origin });
    try {
      await expect(
        client.send({ url: `${elsewhere.origin}/x`, method: 'GET', headers: { Authorization: 'Bearer x' } }),
      ).rejects.toMatchObject({ code: 'API_TOKEN_ORIGIN_REFUSED' });
      expect(elsewhere.requests).toHaveLength(0);
    } finally {
      await client.close();
    }
  });

  it('passes a token source failure through with its own code, and sends nothing', async () => {
    start({
      accessToken: async () => {
        throw new SchoolMcpError('OAUTH_ACCESS_DENIED', 'The user declined.', { hint: 'Ask again.' });
      },
    });
    const outcome = await run(getCourse, { course_id: '1' });
    expect(outcome).toMatchObject({ kind: 'error', error: { code: 'OAUTH_ACCESS_DENIED', hint: 'Ask again.' } });
    expect(api.requests).toHaveLength(0);
  });

  it('wraps a token source failure without a code', async () => {
    start({
      accessToken: async () => {
        throw new Error('disk full');
      },
    });
    expect(await run(getCourse, { course_id: '1' })).toMatchObject({
      kind: 'error',
      error: { code: 'API_SIGN_IN_FAILED' },
    });
  });
});

describe('API-06 redirects are never followed', () => {
  it.each([[301], [302], [303], [307], [308]])(
    '%i to another loopback port: refused, the other server sees nothing',
    async (status) => {
      api.handle((_request, response) => {
        response.writeHead(status, { location: `${elsewhere.origin}/steal` });
        response.end();
      });
      const outcome = await run(createCoupon, { code: 'SPRING', percent_off: 10 });

      expect(outcome).toMatchObject({ kind: 'error', error: { code: 'API_REDIRECT_REFUSED' } });
      expect(toToolResult(outcome).content[0]).toMatchObject({
        text: expect.stringContaining(`${elsewhere.origin}/steal`),
      });
      expect(elsewhere.requests).toHaveLength(0);
      expect(api.requests).toHaveLength(1);
    },
  );

  it.each([
    ['a scheme-relative location', (other: string) => other.replace('http:', '')],
    ['the same origin', () => '/api/v1/other'],
  ])('refuses %s as well', async (_name, location) => {
    api.handle((_request, response) => {
      response.writeHead(302, { location: location(elsewhere.origin) });
      response.end();
    });
    expect(await run(getCourse, { course_id: '1' })).toMatchObject({
      kind: 'error',
      error: { code: 'API_REDIRECT_REFUSED' },
    });
    expect(elsewhere.requests).toHaveLength(0);
    expect(api.requests).toHaveLength(1);
  });
});

describe('ERR-02 a rejected token is refreshed once', () => {
  const rejectOnce = (body: unknown = { id: 'ok' }) => {
    api.handle((request, response) => {
      if (request.headers.authorization === `Bearer ${FIRST_TOKEN}`) {
        response.writeHead(401, { 'www-authenticate': 'Bearer error="invalid_token", error_description="expired"' });
        response.end();
      } else {
        json(response, 200, body);
      }
    });
  };

  it('refreshes once and retries once, then succeeds', async () => {
    rejectOnce();
    const outcome = await run(getCourse, { course_id: '1' });
    expect(outcome).toMatchObject({ kind: 'response', status: 200 });
    expect(tokens.rejectedTokens).toEqual([FIRST_TOKEN]);
    expect(api.requests.map((request) => request.headers.authorization)).toEqual([
      `Bearer ${FIRST_TOKEN}`,
      `Bearer ${REFRESHED_TOKEN}`,
    ]);
  });

  it('retries a POST once after the refresh, with the same body (the API refused it before processing)', async () => {
    rejectOnce({ id: 'coupon-1' });
    const outcome = await run(createCoupon, { code: 'SPRING', percent_off: 10 });
    expect(outcome).toMatchObject({ kind: 'response', status: 200 });
    expect(api.requests.map((request) => JSON.parse(request.body.toString()) as unknown)).toEqual([
      { code: 'SPRING', percent_off: 10 },
      { code: 'SPRING', percent_off: 10 },
    ]);
  });

  it('gives "sign in again" after a second 401, with exactly one refresh and two requests', async () => {
    api.handle((_request, response) => {
      response.writeHead(401, { 'www-authenticate': 'Bearer error="invalid_token"' });
      response.end();
    });
    const outcome = await run(getCourse, { course_id: '1' });
    expect(outcome).toMatchObject({ kind: 'error', error: { code: 'API_UNAUTHORIZED' } });
    expect(toToolResult(outcome)).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining('Sign in again') }],
    });
    expect(tokens.rejectedTokens).toHaveLength(1);
    expect(api.requests).toHaveLength(2);
  });

  it('does not refresh for a 401 that blames the request, not the token', async () => {
    api.handle((_request, response) => {
      response.writeHead(401, { 'www-authenticate': 'Bearer error="invalid_request"' });
      response.end();
    });
    expect(await run(getCourse, { course_id: '1' })).toMatchObject({ kind: 'response', status: 401 });
    expect(tokens.rejectedTokens).toHaveLength(0);
    expect(api.requests).toHaveLength(1);
  });

  it("passes a refused refresh through with the token source's code", async () => {
    start({
      refreshAfterRejection: async () => {
        throw new SchoolMcpError('OAUTH_REFRESH_FAILED', 'The refresh token is no longer valid.');
      },
    });
    rejectOnce();
    expect(await run(getCourse, { course_id: '1' })).toMatchObject({
      kind: 'error',
      error: { code: 'OAUTH_REFRESH_FAILED' },
    });
    expect(api.requests).toHaveLength(1);
  });
});

describe('ERR-03 403 insufficient_scope', () => {
  it('becomes a typed outcome whose scopes come from the challenge', async () => {
    api.handle((_request, response) => {
      response.writeHead(403, {
        'www-authenticate':
          'Bearer error="insufficient_scope", scope="coupons:write coupons:read", resource_metadata="https://school.example/.well-known/oauth-protected-resource"',
        'content-type': 'application/json',
      });
      response.end(JSON.stringify({ error: 'insufficient_scope' }));
    });
    const outcome = await run(createCoupon, { code: 'X', percent_off: 5 });

    expect(outcome).toMatchObject({
      kind: 'insufficient_scope',
      requiredScopes: ['coupons:write', 'coupons:read'],
      scopeSource: 'challenge',
      challenge: { resourceMetadata: 'https://school.example/.well-known/oauth-protected-resource' },
      response: { status: 403 },
    });
    const result = toToolResult(outcome);
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({ text: expect.stringContaining('API_INSUFFICIENT_SCOPE') });
    expect(result.content[0]).toMatchObject({ text: expect.stringContaining('"coupons:write"') });
    expect(tokens.rejectedTokens).toHaveLength(0);
    expect(api.requests).toHaveLength(1);
  });

  it("falls back to the operation's scopes when the challenge names none", async () => {
    api.handle((_request, response) => {
      response.writeHead(403, { 'www-authenticate': 'Bearer error="insufficient_scope"' });
      response.end();
    });
    expect(await run(createCoupon, { code: 'X', percent_off: 5 })).toMatchObject({
      kind: 'insufficient_scope',
      requiredScopes: ['coupons:write'],
      scopeSource: 'operation',
    });
  });

  it('leaves a plain 403 as an API error', async () => {
    api.handle((_request, response) =>
      json(response, 403, { error: 'forbidden', error_description: 'Only owners may do this.' }),
    );
    const outcome = await run(createCoupon, { code: 'X', percent_off: 5 });
    expect(outcome).toMatchObject({ kind: 'response', status: 403 });
    expect(toToolResult(outcome).content[0]).toMatchObject({
      text: expect.stringContaining('Only owners may do this.'),
    });
  });
});
