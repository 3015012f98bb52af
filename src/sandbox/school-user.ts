/**
 * The school and the staff member who signs in to the sandbox. A real school has many staff
 * accounts; the sandbox has one signed-in owner, which is what a single-user demo needs.
 */
export const SANDBOX_SCHOOL = {
  orgId: 'org_sandbox_academy',
  name: 'Sandbox Academy',
} as const;

export const SANDBOX_USER = {
  sub: 'usr_owner_ada',
  name: 'Ada Lovelace',
  email: 'ada@sandbox-academy.test',
  roles: ['owner', 'admin'],
} as const;
