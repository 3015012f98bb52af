/**
 * The school and its staff members who can sign in to the sandbox. The first one is who signs in
 * when nobody is picked (auto-approval, a scripted consent without a choice), which keeps the
 * single-user demo as it was; the others give a hosted school-mcp several people to tell apart.
 */
export const SANDBOX_SCHOOL = {
  orgId: 'org_sandbox_academy',
  name: 'Sandbox Academy',
} as const;

export interface StaffMember {
  readonly sub: string;
  readonly name: string;
  readonly email: string;
  readonly roles: readonly string[];
}

export const SANDBOX_STAFF: readonly StaffMember[] = [
  { sub: 'usr_owner_ada', name: 'Ada Lovelace', email: 'ada@sandbox-academy.test', roles: ['owner', 'admin'] },
  { sub: 'usr_lecturer_grace', name: 'Grace Hopper', email: 'grace@sandbox-academy.test', roles: ['lecturer'] },
  { sub: 'usr_support_alan', name: 'Alan Turing', email: 'alan@sandbox-academy.test', roles: ['support'] },
];

export const SANDBOX_USER: StaffMember = SANDBOX_STAFF[0]!;

/** The staff member with this subject; `undefined` for anyone else. */
export function findStaffMember(sub: string): StaffMember | undefined {
  return SANDBOX_STAFF.find((member) => member.sub === sub);
}
