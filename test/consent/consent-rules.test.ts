/**
 * The pure rules of re-consent: the step-up budget (ERR-03), the sealed request state, the
 * channel chosen per client and era, and the words the user and the agent get.
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { SchoolMcpError } from '../../src/errors.js';
import {
  createConsentStateCodec,
  elicitationMessage,
  pendingResult,
  consentFailedResult,
  type PendingConsent,
} from '../../src/consent/index.js';
import {
  chooseConsentChannel,
  definesUrlElicitation,
  supportsUrlElicitation,
} from '../../src/consent/consent-channel.js';
import { createStepUpBudget, MAX_STEP_UPS, stepUpKey } from '../../src/consent/step-up-budget.js';
import { deniedResult, describeScopes, leavingResult } from '../../src/consent/consent-messages.js';

const DESCRIPTIONS = {
  'coupons:read': 'Read access to coupons',
  'coupons:write': 'Write access to coupons',
  openid: 'OpenID Connect authentication',
};
const WORDING = { toolName: 'create_coupon', school: 'school.example', scopeDescriptions: DESCRIPTIONS };
const CONSENT: PendingConsent = {
  url: 'https://school.example/oauth/authorize?state=abc&scope=coupons%3Aread+coupons%3Awrite',
  scopes: ['coupons:read', 'coupons:write', 'openid', 'profile'],
  newScopes: ['coupons:write'],
  startedAt: Date.UTC(2026, 0, 1, 9, 0),
  expiresAt: Date.UTC(2026, 0, 1, 9, 5),
};

function contextFor(sessionId?: string): ServerContext {
  return {
    ...(sessionId === undefined ? {} : { sessionId }),
    mcpReq: { method: 'tools/call' },
  } as unknown as ServerContext;
}

describe('step-up budget', () => {
  it(`ERR-03 allows ${MAX_STEP_UPS} step-ups per operation and scope set, then refuses and stays refused`, () => {
    const budget = createStepUpBudget();
    const key = stepUpKey('create_coupon', ['coupons:write']);
    for (let i = 0; i < MAX_STEP_UPS; i++) expect(budget.spend(key)).toBe(true);
    expect(budget.spend(key)).toBe(false);
    expect(budget.isDenied(key)).toBe(true);
    budget.settle(key);
    expect(budget.spend(key)).toBe(false);
  });

  it('ERR-03 tracks scope sets apart, order-insensitively, and forgets attempts after a success', () => {
    const budget = createStepUpBudget(1);
    expect(stepUpKey('t', ['b', 'a', 'a'])).toBe(stepUpKey('t', ['a', 'b']));
    expect(budget.spend(stepUpKey('t', ['a']))).toBe(true);
    expect(budget.spend(stepUpKey('t', ['a', 'b']))).toBe(true);
    expect(budget.spend(stepUpKey('u', ['a']))).toBe(true);
    budget.settle(stepUpKey('t', ['a']));
    expect(budget.spend(stepUpKey('t', ['a']))).toBe(true);
    expect(budget.spend(stepUpKey('t', ['a']))).toBe(false);
  });

  it('starts over after sign-out: a refusal recorded for the old grant is forgotten', () => {
    const budget = createStepUpBudget(1);
    const key = stepUpKey('create_member', ['members:write']);
    budget.spend(key);
    expect(budget.spend(key)).toBe(false);
    budget.clear();
    expect(budget.isDenied(key)).toBe(false);
    expect(budget.spend(key)).toBe(true);
  });
});

describe('request state of an input-required result', () => {
  it('round-trips a state it sealed', async () => {
    const codec = createConsentStateCodec();
    const wire = await codec.mint({ v: 1, tool: 'create_coupon', flow: 'f1' }, contextFor());
    await expect(codec.read(wire, contextFor())).resolves.toEqual({ v: 1, tool: 'create_coupon', flow: 'f1' });
  });

  it('refuses a state whose payload was altered, even with a well-formed envelope', async () => {
    const codec = createConsentStateCodec();
    const wire = await codec.mint({ v: 1, tool: 'list_coupons', flow: 'f1' }, contextFor());
    const [version, body, mac] = wire.split('.');
    const payload = JSON.parse(Buffer.from(body!, 'base64url').toString('utf8')) as { p: { tool: string } };
    payload.p.tool = 'delete_everything';
    const forged = [version, Buffer.from(JSON.stringify(payload)).toString('base64url'), mac].join('.');
    await expect(codec.read(forged, contextFor())).resolves.toBeUndefined();
    await expect(codec.read(`${wire}x`, contextFor())).resolves.toBeUndefined();
    await expect(codec.read('not a state', contextFor())).resolves.toBeUndefined();
  });

  it('refuses a state sealed by another launch (another key) or for another MCP session', async () => {
    const wire = await createConsentStateCodec().mint({ v: 1, tool: 't', flow: 'f' }, contextFor('session-a'));
    await expect(createConsentStateCodec().read(wire, contextFor('session-a'))).resolves.toBeUndefined();
    const codec = createConsentStateCodec();
    const own = await codec.mint({ v: 1, tool: 't', flow: 'f' }, contextFor('session-a'));
    await expect(codec.read(own, contextFor('session-b'))).resolves.toBeUndefined();
    await expect(codec.read(own, contextFor('session-a'))).resolves.toMatchObject({ tool: 't' });
  });
  it('HOST-26 refuses a state sealed for one person when read for another, or for nobody', async () => {
    const codec = createConsentStateCodec();
    const wire = await codec.mint(
      { v: 1, tool: 'create_member', flow: 'f', owner: 'usr_support_alan', scopes: ['members:write'] },
      contextFor(),
    );
    await expect(codec.read(wire, contextFor(), 'usr_support_alan')).resolves.toMatchObject({
      owner: 'usr_support_alan',
      scopes: ['members:write'],
    });
    await expect(codec.read(wire, contextFor(), 'usr_lecturer_grace')).resolves.toBeUndefined();
    await expect(codec.read(wire, contextFor())).resolves.toBeUndefined();
    const ownerless = await codec.mint({ v: 1, tool: 'create_member', flow: 'f' }, contextFor());
    await expect(codec.read(ownerless, contextFor(), 'usr_support_alan')).resolves.toBeUndefined();
  });
});

describe('consent channel', () => {
  it('uses URL elicitation only when the client declared its url mode, as a request on 2025-11-25 and as input-required on 2026-07-28', () => {
    const url = { elicitation: { url: {} } };
    expect(
      chooseConsentChannel({ era: 'sessionful', revision: '2025-11-25', clientCapabilities: url, browser: true }),
    ).toBe('elicit-url');
    expect(
      chooseConsentChannel({ era: 'stateless', revision: '2026-07-28', clientCapabilities: url, browser: true }),
    ).toBe('input-required');
    // An empty elicitation object means form mode only.
    expect(supportsUrlElicitation({ elicitation: {} })).toBe(false);
    expect(supportsUrlElicitation({ elicitation: { form: {} } })).toBe(false);
    expect(supportsUrlElicitation(undefined)).toBe(false);
  });

  it.each(['2024-11-05', '2025-03-26', '2025-06-18'])(
    'uses the browser or the link on %s, which has no URL elicitation, even when the client claims it',
    (revision) => {
      const claimed = { elicitation: { url: {} } };
      expect(chooseConsentChannel({ era: 'sessionful', revision, clientCapabilities: claimed, browser: true })).toBe(
        'browser',
      );
      expect(chooseConsentChannel({ era: 'sessionful', revision, clientCapabilities: claimed, browser: false })).toBe(
        'link',
      );
    },
  );

  it('reads revisions as dates, and an unknown or missing one as defining no URL elicitation', () => {
    expect(definesUrlElicitation('2025-11-25')).toBe(true);
    expect(definesUrlElicitation('2026-07-28')).toBe(true);
    expect(definesUrlElicitation('2025-06-18')).toBe(false);
    expect(definesUrlElicitation(undefined)).toBe(false);
    expect(definesUrlElicitation('latest')).toBe(false);
    expect(
      chooseConsentChannel({
        era: 'sessionful',
        revision: undefined,
        clientCapabilities: { elicitation: { url: {} } },
        browser: false,
      }),
    ).toBe('link');
  });

  it('falls back to the browser where one may be opened, else to a link in the result', () => {
    expect(
      chooseConsentChannel({
        era: 'sessionful',
        revision: '2025-11-25',
        clientCapabilities: { elicitation: {} },
        browser: true,
      }),
    ).toBe('browser');
    expect(
      chooseConsentChannel({ era: 'stateless', revision: '2026-07-28', clientCapabilities: {}, browser: true }),
    ).toBe('browser');
    expect(
      chooseConsentChannel({ era: 'stateless', revision: '2026-07-28', clientCapabilities: {}, browser: false }),
    ).toBe('link');
    expect(
      chooseConsentChannel({
        era: 'sessionful',
        revision: '2025-11-25',
        clientCapabilities: undefined,
        browser: false,
      }),
    ).toBe('link');
  });
});

describe('consent words', () => {
  it("names each scope with the school's own words, once, in a stable order", () => {
    expect(describeScopes(['coupons:write', 'custom:scope', 'coupons:write', 'coupons:read'], DESCRIPTIONS)).toBe(
      'coupons:read (Read access to coupons), coupons:write (Write access to coupons), custom:scope',
    );
  });

  it('asks, in the elicitation, only for what approving adds', () => {
    const message = elicitationMessage(CONSENT, WORDING);
    expect(message).toContain('coupons:write (Write access to coupons)');
    expect(message).not.toContain('coupons:read');
    expect(message).toContain('school.example');
  });

  it('a pending result shows the link, what it grants, until when, and that calling again continues', () => {
    const result = pendingResult(CONSENT, WORDING, 120_000);
    const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
    expect(result.isError).toBe(true);
    expect(text).toContain(CONSENT.url);
    expect(text).toContain('coupons:write (Write access to coupons)');
    expect(text).toContain('waited 120 s');
    expect(text).toContain('until 09:05 UTC');
    expect(text).toMatch(
      /call create_coupon again with the same arguments and it continues, as long as this school-mcp process keeps running/,
    );
  });

  it('a pending result says the link needs this process, and offers the terminal sign-in with the scopes, or --link-wait', () => {
    const text = JSON.stringify(
      pendingResult(CONSENT, { ...WORDING, loginCommand: 'school-mcp login --school https://school.example' }, 0),
    );
    expect(text).toContain('starts a new school-mcp for every call');
    expect(text).toContain(
      '`school-mcp login --school https://school.example --scopes \\"coupons:read coupons:write openid profile\\"`',
    );
    expect(text).toContain('--link-wait');
    const demo = JSON.stringify(pendingResult(CONSENT, WORDING, 0));
    expect(demo).not.toContain('school-mcp login');
    expect(demo).toContain('--link-wait');
  });

  it('a result of a process going away says why, that the link is dead, and promises no continuation', () => {
    const closed = JSON.stringify(
      leavingResult(
        CONSENT,
        { ...WORDING, loginCommand: 'school-mcp login --school https://school.example' },
        'input-closed',
      ),
    );
    expect(closed).toContain('the host closed its connection');
    expect(closed).toContain('no longer works');
    expect(closed).toContain('school-mcp login --school https://school.example');
    expect(closed).not.toMatch(/it continues/);
    expect(JSON.stringify(leavingResult(undefined, WORDING, 'stopped'))).toContain('asked to stop');
  });

  it('on a first sign-in everything the flow asks for is new, and is named', () => {
    const text = JSON.stringify(pendingResult({ ...CONSENT, newScopes: [] }, WORDING, 0));
    expect(text).toContain('openid (OpenID Connect authentication)');
    expect(text).not.toContain('waited');
  });

  it('a denial says what was denied and how to ask again; a failure carries its code and hint', () => {
    const denied = JSON.stringify(deniedResult(CONSENT, WORDING, 'denied'));
    expect(denied).toContain('did not approve coupons:write (Write access to coupons)');
    expect(denied).toContain('call create_coupon again');
    const failed = JSON.stringify(
      consentFailedResult(WORDING, new SchoolMcpError('OAUTH_CONSENT_TIMEOUT', 'Too slow.', { hint: 'Start again.' })),
    );
    expect(failed).toContain('OAUTH_CONSENT_TIMEOUT');
    expect(failed).toContain('Next step: Start again.');
  });
});
