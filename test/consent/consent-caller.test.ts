/**
 * The consent-aware caller in-process, against a scripted executor and broker: what it asks for,
 * how often, on which channel, and what it answers. The real thing over stdio is in
 * test/e2e/reconsent*.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createConsentCaller, createConsentStateCodec, flowId } from '../../src/consent/index.js';
import { createCoupon } from '../executor/operation-fixtures.js';
import {
  CALL,
  CONSENT,
  connection,
  context,
  insufficientScope,
  OK,
  PENDING_ERROR,
  scriptedBroker,
  scriptedExecutor,
} from './support/consent-fixtures.js';
import { CONSENT_INPUT_KEY } from '../../src/consent/consent-caller.js';

const textOf = (result: unknown) => JSON.stringify(result);

describe('consent-aware caller', () => {
  it('ERR-03 asks for the challenged scopes, retries, and stops after three step-ups of a school that keeps refusing', async () => {
    const executor = scriptedExecutor([insufficientScope(['coupons:write', 'analytics:read'])]);
    const { broker, log } = scriptedBroker({ stepUp: async (scopes) => (log.stepUps.push([...scopes]), 'granted') });
    const call = createConsentCaller({
      execute: executor.execute,
      broker,
      scopeDescriptions: {},
      schoolName: 'school.example',
      waitMs: 1_000,
    });
    const result = await call(createCoupon, {}, context().ctx);
    expect(log.stepUps).toEqual([
      ['coupons:write', 'analytics:read'],
      ['coupons:write', 'analytics:read'],
      ['coupons:write', 'analytics:read'],
    ]);
    expect(executor.calls).toBe(4);
    expect(textOf(result)).toContain('will not ask again');

    const again = await call(createCoupon, {}, context().ctx);
    expect(log.stepUps).toHaveLength(3);
    expect(textOf(again)).toContain('will not ask again');
  });

  it('waits for a pending consent with progress notices, then runs the call again in the same call', async () => {
    const executor = scriptedExecutor([{ kind: 'error', call: CALL, error: PENDING_ERROR }, OK]);
    const { broker, finish } = scriptedBroker();
    const call = createConsentCaller({
      execute: executor.execute,
      broker,
      scopeDescriptions: {},
      schoolName: 'school.example',
      waitMs: 10_000,
      progressIntervalMs: 5,
    });
    const { ctx, notices } = context({ progressToken: 7 });
    const running = call(createCoupon, {}, ctx, connection('sessionful', false));
    await expect.poll(() => notices.length).toBeGreaterThan(1);
    finish({ kind: 'granted' });
    const result = await running;
    expect(result).toMatchObject({ structuredContent: { id: 'c1' } });
    expect(executor.calls).toBe(2);
    const progress = notices.map(
      (notice) => (notice as { params: { progressToken: number; progress: number; message: string } }).params,
    );
    expect(progress.every((params) => params.progressToken === 7 && params.message.includes('coupons:write'))).toBe(
      true,
    );
    expect(progress.map((params) => params.progress)).toEqual(
      [...progress.map((params) => params.progress)].sort((a, b) => a - b),
    );
  });

  it('answers with the link when the wait runs out, and a later call joins the same flow without showing it again', async () => {
    const executor = scriptedExecutor([{ kind: 'error', call: CALL, error: PENDING_ERROR }]);
    const { broker } = scriptedBroker();
    const call = createConsentCaller({
      execute: executor.execute,
      broker,
      scopeDescriptions: {},
      schoolName: 'school.example',
      waitMs: 5,
    });
    const first = context();
    expect(textOf(await call(createCoupon, {}, first.ctx, connection('sessionful', true)))).toContain(CONSENT.url);
    expect(first.elicited).toHaveLength(1);
    const second = context();
    // Joined, not shown again: the same link comes back in the result, and nothing is elicited. (Whether
    // "still pending (waited …)" is said depends on how much of the 5 ms wait was left when it began.)
    const joined = textOf(await call(createCoupon, {}, second.ctx, connection('sessionful', true)));
    expect(joined).toContain('has not run yet');
    expect(joined).toContain(CONSENT.url);
    expect(second.elicited).toHaveLength(0);
  });

  it('says what the call waits for before the client shows the link, even when showing it uses up the wait', async () => {
    const executor = scriptedExecutor([{ kind: 'error', call: CALL, error: PENDING_ERROR }]);
    const { broker } = scriptedBroker();
    const call = createConsentCaller({
      execute: executor.execute,
      broker,
      scopeDescriptions: {},
      schoolName: 'school.example',
      waitMs: 1_000,
    });
    let noticesWhenShown = -1;
    const waiting = context({
      progressToken: 3,
      // A client that is slow to show the link: its answer comes after the whole wait.
      elicit: async () => {
        noticesWhenShown = waiting.notices.length;
        throw new Error('Request timed out');
      },
    });
    const result = await call(createCoupon, {}, waiting.ctx, connection('sessionful', true));
    expect(textOf(result)).toContain(CONSENT.url);
    expect(noticesWhenShown).toBe(1);
    expect(JSON.stringify(waiting.notices[0])).toContain('coupons:write');
  });

  it('a declined URL elicitation ends the flow as denied', async () => {
    const executor = scriptedExecutor([{ kind: 'error', call: CALL, error: PENDING_ERROR }]);
    const { broker, log } = scriptedBroker();
    const call = createConsentCaller({
      execute: executor.execute,
      broker,
      scopeDescriptions: {},
      schoolName: 'school.example',
      waitMs: 1_000,
    });
    const result = await call(
      createCoupon,
      {},
      context({ elicit: async () => ({ action: 'decline' }) }).ctx,
      connection('sessionful', true),
    );
    expect(log.declined).toBe(1);
    expect(textOf(result)).toContain('declined to open the approval link for coupons:write');
  });

  it('on 2026-07-28 returns an input-required URL request, and refuses a retry whose state was tampered with', async () => {
    const executor = scriptedExecutor([{ kind: 'error', call: CALL, error: PENDING_ERROR }]);
    const { broker } = scriptedBroker();
    const call = createConsentCaller({
      execute: executor.execute,
      broker,
      scopeDescriptions: {},
      schoolName: 'school.example',
      waitMs: 5,
    });
    const first = (await call(createCoupon, {}, context().ctx, connection('stateless', true))) as {
      resultType?: string;
      inputRequests?: Record<string, { params?: { url?: string } }>;
      requestState?: string;
    };
    expect(first.resultType).toBe('input_required');
    expect(first.inputRequests?.[CONSENT_INPUT_KEY]?.params?.url).toBe(CONSENT.url);
    expect(first.requestState).toMatch(/^v1\./);

    const accepted = { [CONSENT_INPUT_KEY]: { action: 'accept' } };
    const honest = await call(
      createCoupon,
      {},
      context({ requestState: first.requestState!, inputResponses: accepted }).ctx,
      connection('stateless', true),
    );
    // The honest retry is taken as the same flow, still waiting for the user; only the tampered one is refused.
    expect(textOf(honest)).toContain('has not run yet');
    expect(textOf(honest)).toContain(CONSENT.url);
    expect(textOf(honest)).not.toContain('was refused');
    const tampered = await call(
      createCoupon,
      {},
      context({ requestState: `${first.requestState}A`, inputResponses: accepted }).ctx,
      connection('stateless', true),
    );
    expect(textOf(tampered)).toContain('was refused');
  });

  it('on 2026-07-28, a retry after the user denied the flow answers the denial and shows no new flow', async () => {
    const next: typeof CONSENT = { ...CONSENT, url: 'https://school.example/oauth/authorize?state=s2' };
    const executor = scriptedExecutor([{ kind: 'error', call: CALL, error: PENDING_ERROR }]);
    let flowsOpened = 0;
    // Once the denied flow is over, running the operation would open the next one.
    const { broker, finish } = scriptedBroker({ pendingOf: () => (flowsOpened++ === 0 ? CONSENT : next) });
    const call = createConsentCaller({
      execute: executor.execute,
      broker,
      scopeDescriptions: {},
      schoolName: 'school.example',
      waitMs: 1_000,
    });
    const first = (await call(createCoupon, {}, context().ctx, connection('stateless', true))) as {
      requestState?: string;
    };
    finish({ kind: 'denied' });

    const accepted = { [CONSENT_INPUT_KEY]: { action: 'accept' } };
    const retry = await call(
      createCoupon,
      {},
      context({ requestState: first.requestState!, inputResponses: accepted }).ctx,
      connection('stateless', true),
    );
    expect(textOf(retry)).toContain('did not approve coupons:write');
    expect(textOf(retry)).not.toContain(next.url);
    expect(executor.calls).toBe(1);
  });

  it('over HTTP, a flow shown to one MCP session is not shown to another', async () => {
    const executor = scriptedExecutor([{ kind: 'error', call: CALL, error: PENDING_ERROR }]);
    const { broker } = scriptedBroker();
    const call = createConsentCaller({
      execute: executor.execute,
      broker,
      scopeDescriptions: {},
      schoolName: 'school.example',
      waitMs: 5,
    });
    await call(createCoupon, {}, context({ sessionId: 'alice' }).ctx, connection('sessionful', false));
    const other = await call(createCoupon, {}, context({ sessionId: 'mallory' }).ctx, connection('sessionful', false));
    expect(textOf(other)).toContain('another connection is waiting');
    expect(textOf(other)).not.toContain(CONSENT.url);
  });
});

describe('consent-aware caller with a broker of one person among many (hosted)', () => {
  it('HOST-37 tells the broker a call waits when it shows the link in the conversation, and to ask again once a call stops waiting', async () => {
    const reaches: string[] = [];
    const executor = scriptedExecutor([{ kind: 'error', call: CALL, error: PENDING_ERROR }]);
    const { broker } = scriptedBroker({
      person: 'usr_lecturer_grace',
      noteReach: async (_consent, reach) => void reaches.push(reach),
    });
    const call = createConsentCaller({
      execute: executor.execute,
      broker,
      scopeDescriptions: {},
      schoolName: 'school.example',
      waitMs: 5,
      hosted: true,
    });
    const result = await call(
      createCoupon,
      {},
      context({ elicit: async () => ({ action: 'accept' }) }).ctx,
      connection('sessionful', true),
    );
    expect(reaches).toEqual(['call-waits', 'ask-again']);
    // Hosted words: the approval reaches the server, and the link is single-use.
    expect(textOf(result)).toContain('that this person has not granted to school-mcp');
    expect(textOf(result)).toContain('The link works once');
    expect(textOf(result)).not.toContain('this computer');
  });

  it('HOST-26 HOST-38 seals the input-required state to the person, and resumes a retry this process never showed through the broker', async () => {
    const executor = scriptedExecutor([{ kind: 'error', call: CALL, error: PENDING_ERROR }, OK]);
    // One key for every instance of a deployment, as hosted mode derives it from the store.
    const requestState = createConsentStateCodec(new Uint8Array(32).fill(7));
    const shownHere = scriptedBroker({ person: 'usr_lecturer_grace' });
    const shownElsewhere = createConsentCaller({
      execute: executor.execute,
      broker: shownHere.broker,
      scopeDescriptions: {},
      schoolName: 'school.example',
      waitMs: 1_000,
      requestState,
    });
    const first = (await shownElsewhere(createCoupon, {}, context().ctx, connection('stateless', true))) as {
      requestState?: string;
    };
    const accepted = { [CONSENT_INPUT_KEY]: { action: 'accept' } };
    const retry = () => context({ requestState: first.requestState!, inputResponses: accepted }).ctx;

    // Another instance, the same person: its broker finds the flow by id, and the call waits for it.
    const rejoined: string[] = [];
    const there = scriptedBroker({
      person: 'usr_lecturer_grace',
      rejoin: async (flow) => (rejoined.push(flow), CONSENT),
    });
    there.finish({ kind: 'granted' });
    const call = createConsentCaller({
      execute: executor.execute,
      broker: there.broker,
      scopeDescriptions: {},
      schoolName: 'school.example',
      waitMs: 1_000,
      requestState,
    });
    expect(await call(createCoupon, {}, retry(), connection('stateless', true))).toMatchObject({
      structuredContent: { id: 'c1' },
    });
    expect(rejoined).toEqual([flowId(CONSENT.url)]);

    // Another person's broker refuses the same state before anything runs.
    const calls = executor.calls;
    const stranger = createConsentCaller({
      execute: executor.execute,
      broker: scriptedBroker({ person: 'usr_support_alan' }).broker,
      scopeDescriptions: {},
      schoolName: 'school.example',
      waitMs: 1_000,
      requestState,
    });
    expect(textOf(await stranger(createCoupon, {}, retry(), connection('stateless', true)))).toContain('was refused');
    expect(executor.calls).toBe(calls);
  });
});
