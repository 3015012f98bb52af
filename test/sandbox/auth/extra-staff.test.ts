/**
 * Generated staff for load tests: the roster's shape (pure), the `--extra-staff` flag, and a
 * generated member signing in over real HTTP and being read back as themselves.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { describeSandbox } from '../../../packages/sandbox/src/cli.js';
import { completeConsent, SANDBOX_STAFF, startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { findStaffMember, staffRoster } from '../../../packages/sandbox/src/school-user.js';
import { authorizationParams, authorizationUrl, pkcePair, postForm, registerClient, userinfo } from './oauth-flow.js';

describe('the generated staff roster (pure)', () => {
  it('keeps the three named members first and numbers the generated ones after them', () => {
    const roster = staffRoster(47);
    expect(roster).toHaveLength(50);
    expect(roster.slice(0, 3)).toEqual(SANDBOX_STAFF);
    expect(roster[3]).toEqual({
      sub: 'usr_staff_001',
      name: 'Staff Member 001',
      email: 'staff001@sandbox-academy.test',
      roles: ['lecturer'],
    });
    expect(roster[49]).toEqual({
      sub: 'usr_staff_047',
      name: 'Staff Member 047',
      email: 'staff047@sandbox-academy.test',
      roles: ['lecturer'],
    });
    expect(new Set(roster.map((member) => member.sub)).size).toBe(50);
    expect(staffRoster()).toEqual(SANDBOX_STAFF);
  });

  it('refuses a count that is not a whole number from 0 to 999', () => {
    for (const count of [-1, 1.5, 1000, Number.NaN]) expect(() => staffRoster(count)).toThrow(RangeError);
    expect(staffRoster(999)).toHaveLength(1002);
  });

  it('finds named and generated members by subject, and nobody else', () => {
    expect(findStaffMember('usr_lecturer_grace')).toBe(SANDBOX_STAFF[1]);
    expect(findStaffMember('usr_staff_012')?.name).toBe('Staff Member 012');
    for (const stranger of ['usr_staff_000', 'usr_staff_12', 'usr_staff_0012', 'usr_staff_abc', 'usr_nobody'])
      expect(findStaffMember(stranger), stranger).toBeUndefined();
  });
});

describe('school-mcp sandbox --extra-staff', () => {
  const sandboxOptions = (args: string[]) => loadConfig(['sandbox', ...args], {}).sandbox;

  it('reads the count and says it once the sandbox listens', () => {
    expect(sandboxOptions(['--extra-staff', '47'])).toEqual({ extraStaff: 47 });
    expect(describeSandbox('http://127.0.0.1:4000', { extraStaff: 47 })).toContain('47 generated (usr_staff_001…)');
    expect(describeSandbox('http://127.0.0.1:4000', {})).not.toContain('generated');
  });

  it.each([['-1'], ['1000'], ['two'], ['4.5'], ['']])('refuses --extra-staff %j as a usage error', (count) => {
    expect(() => sandboxOptions(['--extra-staff', count])).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
  });
});

describe('a generated staff member at the sandbox', () => {
  let sandbox: RunningSandbox | undefined;
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });

  async function signInAs(base: string, user: string) {
    const client = await registerClient(base);
    const pkce = pkcePair();
    const callback = await completeConsent(
      authorizationUrl(
        base,
        authorizationParams(client.clientId, pkce, { scope: 'openid profile email account:read' }),
      ),
      'allow',
      { user },
    );
    if (callback.searchParams.get('code') === null) return undefined;
    const tokens = await postForm(`${base}/api/oauth/token`, {
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code')!,
      redirect_uri: 'http://127.0.0.1:53682/callback',
      client_id: client.clientId,
      code_verifier: pkce.verifier,
    });
    return String(tokens.body.access_token);
  }

  it('is offered on the consent page, signs in, and is read back as themselves in userinfo and the account', async () => {
    sandbox = await startSandbox({ extraStaff: 5 });
    const client = await registerClient(sandbox.url);
    const page = await (
      await fetch(authorizationUrl(sandbox.url, authorizationParams(client.clientId, pkcePair())))
    ).text();
    expect(page).toContain('<option value="usr_staff_005">Staff Member 005 (lecturer)</option>');
    expect(page).toContain(`<option value="${SANDBOX_STAFF[0]!.sub}" selected>`);
    const token = (await signInAs(sandbox.url, 'usr_staff_005'))!;
    expect((await userinfo(sandbox.url, token)).body).toMatchObject({
      sub: 'usr_staff_005',
      name: 'Staff Member 005',
      email: 'staff005@sandbox-academy.test',
      roles: ['lecturer'],
    });
    const account = await (
      await fetch(`${sandbox.url}/api/v1/account`, { headers: { authorization: `Bearer ${token}` } })
    ).json();
    expect(account).toMatchObject({
      id: 'usr_staff_005',
      name: 'Staff Member 005',
      email: 'staff005@sandbox-academy.test',
      roles: ['lecturer'],
    });
  });

  it('is refused past the roster: a sandbox with 5 generated members has no usr_staff_006', async () => {
    sandbox = await startSandbox({ extraStaff: 5 });
    await expect(signInAs(sandbox.url, 'usr_staff_006')).rejects.toThrow(/no staff member with that id/);
  });
});
