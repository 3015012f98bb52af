/**
 * A hosted person's step-up as consent's broker, against a real directory store where a second
 * store object on the same directory stands for another instance; and its pure parts: what a
 * step-up asks for, and the page the person lands on.
 */
import { describe, expect, it } from 'vitest';
import { flowId } from '../../src/consent/index.js';
import type { GrantStore } from '../../src/grant-store/index.js';
import { SCHOOL_GRANTS, type SchoolGrant } from '../../src/hosted/school-sign-in.js';
import { createStepUpBroker, openStepUp } from '../../src/hosted/step-up-broker.js';
import { renderStepUpDonePage } from '../../src/hosted/step-up-page.js';
import { planStepUp, remainingTtlSeconds, STEP_UP_FLOWS, STEP_UPS } from '../../src/hosted/step-up-record.js';
import { storePairs } from './store-pair.js';

const twoInstances = storePairs();
const GRACE = 'usr_lecturer_grace';
const ALAN = 'usr_support_alan';
const link = (id: string) => `http://mcp.test/step-up/${id}`;

async function grantOf(store: GrantStore, sub: string): Promise<SchoolGrant> {
  const grant = (await store.read(SCHOOL_GRANTS, sub)) as SchoolGrant | undefined;
  if (grant === undefined) throw new Error('no grant');
  return grant;
}

async function withGrant(store: GrantStore, sub: string, scopes: string[]): Promise<void> {
  await store.write(SCHOOL_GRANTS, sub, { sub, accessToken: `at-${sub}`, scopes });
}

function brokerOf(store: GrantStore, sub: string) {
  return createStepUpBroker({ store, link, sub, grant: () => grantOf(store, sub) });
}

describe('what a hosted step-up asks for', () => {
  it('HOST-37 asks the school for what is granted plus what is needed, and names only what is new', () => {
    expect(planStepUp(['account:read', 'courses:read'], ['courses:read', 'students:read', 'students:read'])).toEqual({
      scopes: ['account:read', 'courses:read', 'students:read'],
      missing: ['students:read'],
    });
  });

  it("keeps what is left of a flow record's life when it is rewritten, and nothing once it is over", () => {
    expect(remainingTtlSeconds({ expiresAt: 10_500 }, 1_000)).toBe(10);
    expect(remainingTtlSeconds({ expiresAt: 1_000 }, 1_000)).toBeUndefined();
  });
});

describe('the page a step-up ends on', () => {
  it('tells the person to go back and let the waiting call finish, or to ask again when the link came in a result', () => {
    expect(renderStepUpDonePage(true, 'call-waits')).toMatch(/Granted[\s\S]*finishes on its own/);
    expect(renderStepUpDonePage(true, 'call-waits')).not.toMatch(/ask again/);
    expect(renderStepUpDonePage(true, 'ask-again')).toMatch(/Granted[\s\S]*ask again/);
    expect(renderStepUpDonePage(false, 'call-waits')).toMatch(/Not granted[\s\S]*Nothing was granted/);
  });
});

describe("a hosted person's step-up broker", () => {
  it('HOST-37 answers a challenge the grant already covers as granted, and opens a step-up for granted ∪ challenged otherwise', async () => {
    const [store] = await twoInstances();
    await withGrant(store, GRACE, ['courses:read']);
    const broker = brokerOf(store, GRACE);
    expect(broker.person).toBe(GRACE);
    expect(await broker.stepUp(['courses:read'])).toBe('granted');
    const consent = await broker.stepUp(['courses:read', 'students:read']);
    if (consent === 'granted') throw new Error('expected a step-up');
    expect(consent).toMatchObject({ scopes: ['courses:read', 'students:read'], newScopes: ['students:read'] });
    const id = /\/step-up\/([A-Za-z0-9_-]+)$/.exec(consent.url)![1]!;
    expect(await store.read(STEP_UPS, id)).toMatchObject({
      sub: GRACE,
      scopes: ['courses:read', 'students:read'],
      missing: ['students:read'],
    });
    expect(broker.pendingOf(new Error('not a step-up') as never)).toBeUndefined();
  });

  it("HOST-38 resumes a flow on another instance for its own person only: another person's broker finds nothing by its id", async () => {
    const [here, there] = await twoInstances();
    await withGrant(here, GRACE, ['courses:read']);
    await withGrant(here, ALAN, ['courses:read']);
    const consent = await openStepUp({ store: here, link }, GRACE, ['courses:read'], ['students:read']);
    const flow = flowId(consent.url);
    expect(await brokerOf(there, GRACE).rejoin!(flow)).toEqual(consent);
    expect(await brokerOf(there, ALAN).rejoin!(flow)).toBeUndefined();
    expect(await brokerOf(there, GRACE).rejoin!('no-such-flow')).toBeUndefined();
    // Nor does another person's broker learn how it went, or write to it.
    await brokerOf(there, ALAN).noteReach!(consent, 'call-waits');
    expect(await here.read(STEP_UP_FLOWS, flow)).not.toHaveProperty('reach');
    await brokerOf(there, GRACE).noteReach!(consent, 'call-waits');
    expect(await here.read(STEP_UP_FLOWS, flow)).toMatchObject({ reach: 'call-waits' });
  });

  it("HOST-37 settles as granted once the person's grant in the shared store holds what was new, seen from another instance", async () => {
    const [here, there] = await twoInstances();
    await withGrant(here, GRACE, ['courses:read']);
    const consent = await brokerOf(here, GRACE).stepUp(['students:read']);
    if (consent === 'granted') throw new Error('expected a step-up');
    const outcome = brokerOf(there, GRACE).outcome(consent);
    await withGrant(here, GRACE, ['courses:read', 'students:read']);
    await expect(outcome).resolves.toEqual({ kind: 'granted' });
  });

  it('HOST-60 ends a step-up whose link someone else signed in with, for every call waiting on it, as a refused answer rather than a decline', async () => {
    const [here, there] = await twoInstances();
    await withGrant(here, GRACE, ['courses:read']);
    const consent = await brokerOf(here, GRACE).stepUp(['students:read']);
    if (consent === 'granted') throw new Error('expected a step-up');
    const waiting = brokerOf(there, GRACE).outcome(consent);
    // What the school callback writes when the school signed in another person (school-callback-route.ts).
    const flow = (await here.read(STEP_UP_FLOWS, flowId(consent.url)))!;
    await here.write(STEP_UP_FLOWS, flowId(consent.url), { ...flow, ended: 'other-person' }, { ttlSeconds: 60 });
    const outcome = await waiting;
    expect(outcome).toMatchObject({ kind: 'failed', error: { code: 'HOSTED_STEP_UP_OTHER_PERSON' } });
    // Another person's broker never learns of Grace's flow.
    await here.write(
      STEP_UP_FLOWS,
      flowId(consent.url),
      { ...flow, ended: 'other-person', expiresAt: Date.now() + 300 },
      { ttlSeconds: 60 },
    );
    await expect(brokerOf(there, ALAN).outcome({ ...consent, expiresAt: Date.now() + 300 })).resolves.toMatchObject({
      kind: 'failed',
      error: { code: 'OAUTH_CONSENT_TIMEOUT' },
    });
  });

  it('HOST-39 ends a step-up the person declined for every call waiting on it, on any instance, and its link no longer leads to the school', async () => {
    const [here, there] = await twoInstances();
    await withGrant(here, GRACE, ['courses:read']);
    const consent = await brokerOf(here, GRACE).stepUp(['students:read']);
    if (consent === 'granted') throw new Error('expected a step-up');
    const id = /\/step-up\/([A-Za-z0-9_-]+)$/.exec(consent.url)![1]!;
    const waiting = brokerOf(there, GRACE).outcome(consent);
    await brokerOf(here, GRACE).decline(consent);
    await expect(waiting).resolves.toEqual({ kind: 'denied' });
    expect(await here.read(STEP_UPS, id)).toBeUndefined();
    // A retry of it after the decline learns the decline rather than being asked again.
    const rejoined = await brokerOf(there, GRACE).rejoin!(flowId(consent.url));
    expect(rejoined).toEqual(consent);
    await expect(brokerOf(there, GRACE).outcome(rejoined!)).resolves.toEqual({ kind: 'denied' });
  });
});
