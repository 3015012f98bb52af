/**
 * The school and its staff members who can sign in to the sandbox. The first one is who signs in
 * when nobody is picked (auto-approval, a scripted consent without a choice), which keeps the
 * single-user demo as it was; the others give a hosted school-mcp several people to tell apart.
 * A load test needs many more people than three: `extraStaff` adds generated lecturers after
 * the named ones, each with a subject, name and email of their own.
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

/** Generated members are numbered with three digits, so no name is a prefix of another's. */
const MAX_EXTRA_STAFF = 999;

const GENERATED_SUB = /^usr_staff_(\d{3})$/;

/** Pure: generated staff member `number` (1 … MAX_EXTRA_STAFF). */
function generatedStaffMember(number: number): StaffMember {
  if (!Number.isInteger(number) || number < 1 || number > MAX_EXTRA_STAFF)
    throw new RangeError(`a generated staff member is numbered 1 to ${MAX_EXTRA_STAFF}`);
  const digits = String(number).padStart(3, '0');
  return {
    sub: `usr_staff_${digits}`,
    name: `Staff Member ${digits}`,
    email: `staff${digits}@sandbox-academy.test`,
    roles: ['lecturer'],
  };
}

/** Pure: everyone who may sign in to a sandbox with `extraStaff` generated members: the named ones first. */
export function staffRoster(extraStaff = 0): readonly StaffMember[] {
  if (!Number.isInteger(extraStaff) || extraStaff < 0 || extraStaff > MAX_EXTRA_STAFF)
    throw new RangeError(`sandbox option extraStaff must be a whole number from 0 to ${MAX_EXTRA_STAFF}`);
  if (extraStaff === 0) return SANDBOX_STAFF;
  return [...SANDBOX_STAFF, ...Array.from({ length: extraStaff }, (_, index) => generatedStaffMember(index + 1))];
}

/**
 * The staff member with this subject, named or generated; `undefined` for anyone else. Who may
 * sign in is the roster's to say (the consent form checks it); a token's subject is always one
 * of its members, so reading a generated one back needs no roster.
 */
export function findStaffMember(sub: string): StaffMember | undefined {
  const named = SANDBOX_STAFF.find((member) => member.sub === sub);
  if (named !== undefined) return named;
  const generated = GENERATED_SUB.exec(sub);
  const number = generated === null ? 0 : Number(generated[1]);
  return number >= 1 ? generatedStaffMember(number) : undefined;
}
