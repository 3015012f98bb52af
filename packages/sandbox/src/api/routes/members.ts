/** Members: the people of the school (students, customers), found by email or by signup date. */
import { ApiError } from '../api-error.js';
import { applyPatch, findOrThrow, inRange } from '../lookup.js';
import { paginate } from '../pagination.js';
import { params } from '../path-params.js';
import type { ApiRoute, HandlerContext, RouteFamily } from '../route.js';
import { partial, s } from '../schema.js';
import type { Member } from '../store/index.js';

const memberFields = {
  email: s.email('Email address; unique within the school.'),
  name: s.string('Full name.', { minLength: 1, maxLength: 200, example: 'Jane Doe' }),
  tags: s.array(
    s.string('A tag.', { minLength: 1, maxLength: 50 }),
    'Free-form tags, e.g. `vip`. An update replaces the whole list: send every tag to keep.',
    { maxItems: 20 },
  ),
};

const Member = s.object(
  {
    id: params.memberId,
    ...memberFields,
    created_at: s.dateTime('When the member signed up.'),
    last_sign_in_at: s.nullable(s.dateTime('Last sign-in, if any.')),
  },
  ['id', 'email', 'name', 'tags', 'created_at', 'last_sign_in_at'],
  'A member (student) of the school.',
);

const MemberCreate = s.object(memberFields, ['email', 'name'], 'A new member.');
const MemberUpdate = partial(s.object(memberFields, []), 'Member fields to change.');

function findMemberByEmail(members: readonly Member[], email: string): Member | undefined {
  const wanted = email.trim().toLowerCase();
  return members.find((member) => member.email.toLowerCase() === wanted);
}

function listMembers({ store, query }: HandlerContext) {
  const email = typeof query['email'] === 'string' ? query['email'].toLowerCase() : undefined;
  const search = typeof query['q'] === 'string' ? query['q'].toLowerCase() : undefined;
  const members = store.state.members.filter(
    (member) =>
      (email === undefined || member.email.toLowerCase() === email) &&
      (search === undefined ||
        member.name.toLowerCase().includes(search) ||
        member.email.toLowerCase().includes(search)) &&
      (query['tag'] === undefined || member.tags.includes(query['tag'] as string)) &&
      inRange(member.created_at, query['created_after'], query['created_before'], store.state.school.timezone),
  );
  return paginate(members, query['page'] as number, query['per_page'] as number);
}

function createMember({ store, body }: HandlerContext) {
  const input = body as Pick<Member, 'email' | 'name'> & Partial<Member>;
  const existing = findMemberByEmail(store.state.members, input.email);
  if (existing)
    throw new ApiError(
      'conflict',
      `a member with email ${input.email} already exists (${existing.id}); use it instead`,
    );
  const member: Member = {
    id: store.newId('mem'),
    email: input.email.trim(),
    name: input.name,
    tags: input.tags ?? [],
    created_at: store.timestamp(),
    last_sign_in_at: null,
  };
  store.state.members.push(member);
  return member;
}

function updateMember({ store, params: { memberId }, body }: HandlerContext) {
  const member = findOrThrow(store.state.members, memberId!, 'member');
  const patch = body as Partial<Member>;
  if (patch.email !== undefined) {
    const owner = findMemberByEmail(store.state.members, patch.email);
    if (owner && owner.id !== member.id)
      throw new ApiError('conflict', `email ${patch.email} belongs to member ${owner.id}`);
  }
  applyPatch(member, patch);
  return member;
}

const routes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/members',
    operationId: 'list_members',
    summary: 'List or find members',
    description:
      'Lists members in signup order. Filter by exact `email` to find one person, or by signup date to count new members.',
    group: 'members',
    scopes: ['members:read'],
    anonymous: 'private',
    list: true,
    query: {
      email: s.email('Exact email address (case-insensitive).'),
      q: s.string('Search in name and email.', { maxLength: 200, example: 'jane' }),
      tag: s.string('Only members with this tag.', { maxLength: 50, example: 'vip' }),
      created_after: s.dateOrDateTime('Signed up at or after this moment.', '2025-03-01'),
      created_before: s.dateOrDateTime('Signed up before this moment.', '2025-04-01'),
    },
    response: { status: 200, schema: s.ref('Member'), description: 'A page of members.' },
    handler: listMembers,
  },
  {
    method: 'POST',
    path: '/api/v1/members',
    operationId: 'create_member',
    summary: 'Create a member',
    description:
      'Adds a person to the school. Look them up by email first: an email that is already taken answers 409 with the existing id.',
    group: 'members',
    scopes: ['members:write'],
    anonymous: 'private',
    body: { schema: s.ref('MemberCreate') },
    response: { status: 201, schema: s.ref('Member'), description: 'The created member.' },
    conflicts: 'The email belongs to an existing member.',
    handler: createMember,
  },
  {
    method: 'GET',
    path: '/api/v1/members/:memberId',
    operationId: 'get_member',
    summary: 'Get a member',
    description: 'Gets one member by id.',
    group: 'members',
    scopes: ['members:read'],
    anonymous: 'private',
    params: { memberId: params.memberId },
    response: { status: 200, schema: s.ref('Member'), description: 'The member.' },
    handler: ({ store, params: { memberId } }) => findOrThrow(store.state.members, memberId!, 'member'),
  },
  {
    method: 'PATCH',
    path: '/api/v1/members/:memberId',
    operationId: 'update_member',
    summary: 'Update a member',
    description: 'Changes only the given fields of a member.',
    group: 'members',
    scopes: ['members:write'],
    anonymous: 'private',
    params: { memberId: params.memberId },
    body: { schema: s.ref('MemberUpdate') },
    response: { status: 200, schema: s.ref('Member'), description: 'The member as stored.' },
    conflicts: 'The new email belongs to another member.',
    handler: updateMember,
  },
];

export const memberFamily: RouteFamily = {
  group: 'members',
  description: 'The members (students, customers) of the school.',
  schemas: { Member, MemberCreate, MemberUpdate },
  routes,
};
