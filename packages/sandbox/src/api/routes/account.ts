/** The account: who the token speaks for, their roles, and what the token may do. */
import { findStaffMember, SANDBOX_SCHOOL, SANDBOX_USER, type StaffMember } from '../../school-user.js';
import { applyPatch } from '../lookup.js';
import type { ApiRoute, HandlerContext, RouteFamily } from '../route.js';
import { partial, s } from '../schema.js';
import type { AccountPreferences, SchoolState } from '../store/index.js';

const accountFields = {
  name: s.string('Display name.', { minLength: 1, maxLength: 200, example: 'Ada Lovelace' }),
  locale: s.string('Preferred language (BCP 47).', { pattern: '^[a-z]{2}(-[A-Z]{2})?$', example: 'en-GB' }),
  timezone: s.string('Preferred IANA time zone.', { maxLength: 64, example: 'Europe/London' }),
};

const Account = s.object(
  {
    id: s.string("The user id (the token's subject).", { example: 'usr_owner_ada' }),
    email: s.email('Sign-in email.', 'ada@sandbox-academy.test'),
    ...accountFields,
    org_id: s.string('The school this account belongs to.', { example: 'org_sandbox_academy' }),
    roles: s.array(s.string('A role.', { example: 'owner' }), 'Roles in the school.'),
    granted_scopes: s.array(
      s.string('A scope.', { example: 'courses:read' }),
      'Scopes of the token used for this call: what the caller may do now.',
    ),
    token_expires_at: s.dateTime('When the token used for this call expires.'),
  },
  ['id', 'email', 'name', 'locale', 'timezone', 'org_id', 'roles', 'granted_scopes', 'token_expires_at'],
  'The signed-in staff account.',
);

const AccountUpdate = partial(s.object(accountFields, []), 'Account preferences to change.');

function callerOf({ caller }: HandlerContext) {
  const token = caller.kind === 'token' ? caller.token : undefined;
  return { token, user: (token === undefined ? undefined : findStaffMember(token.subject)) ?? SANDBOX_USER };
}

/** The preferences each staff member sees and changes are their own. */
function preferencesOf(state: SchoolState, user: StaffMember): AccountPreferences {
  if (user.sub === SANDBOX_USER.sub) return state.account;
  state.staff_accounts ??= {};
  return (state.staff_accounts[user.sub] ??= { name: user.name, locale: 'en-GB', timezone: 'Europe/London' });
}

function accountView(context: HandlerContext) {
  const { token, user } = callerOf(context);
  return {
    id: user.sub,
    email: user.email,
    ...preferencesOf(context.store.state, user),
    org_id: SANDBOX_SCHOOL.orgId,
    roles: [...user.roles],
    granted_scopes: [...(token?.scopes ?? [])],
    token_expires_at: new Date((token?.expiresAt ?? 0) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
}

const routes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/account',
    operationId: 'get_account',
    summary: 'Who am I connected as',
    description: 'Gets the signed-in account, its roles in the school and the scopes granted to the current token.',
    group: 'account',
    scopes: ['account:read'],
    anonymous: 'private',
    response: { status: 200, schema: s.ref('Account'), description: 'The account.' },
    handler: accountView,
  },
  {
    method: 'PATCH',
    path: '/api/v1/account',
    operationId: 'update_account',
    summary: 'Change account preferences',
    description: 'Changes the display name, language or time zone of the signed-in account.',
    group: 'account',
    scopes: ['account:write'],
    anonymous: 'private',
    body: { schema: s.ref('AccountUpdate') },
    response: { status: 200, schema: s.ref('Account'), description: 'The account as stored.' },
    handler: (context) => {
      applyPatch(
        preferencesOf(context.store.state, callerOf(context).user),
        context.body as Partial<AccountPreferences>,
      );
      return accountView(context);
    },
  },
];

export const accountFamily: RouteFamily = {
  group: 'account',
  description: "The signed-in staff account and the current token's scopes.",
  schemas: { Account, AccountUpdate },
  routes,
};
