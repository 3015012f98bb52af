/** Events (webinars, workshops) with their tickets and attendees. Published events are public. */
import { invalidInput, notFound } from '../api-error.js';
import { applyPatch, findOrThrow, inRange, isStaff, inStates } from '../lookup.js';
import { cents, currency } from '../money.js';
import { paginate } from '../pagination.js';
import { params } from '../path-params.js';
import type { ApiRoute, HandlerContext, RouteFamily } from '../route.js';
import { partial, s } from '../schema.js';
import { ATTENDEE_STATES, EVENT_STATES, type SchoolEvent, type SchoolState, type Ticket } from '../store/index.js';

const eventFields = {
  title: s.string('Event title.', { minLength: 1, maxLength: 200, example: 'Live Q&A: painting skies' }),
  description: s.string('What the event is about.', { maxLength: 10_000 }),
  starts_at: s.dateTime('Start time.', '2025-03-18T17:00:00Z'),
  ends_at: s.dateTime('End time; after `starts_at`.', '2025-03-18T18:00:00Z'),
  timezone: s.string('IANA time zone shown to attendees.', { maxLength: 64, example: 'Europe/Berlin' }),
  location_type: s.enumOf(['online', 'in_person'] as const, 'Online (webinar) or in person.'),
  location: s.string('Meeting URL or street address.', { maxLength: 500, example: 'https://meet.example.com/sky' }),
  capacity: s.integer('Seats available.', { minimum: 1, maximum: 100_000, example: 50 }),
  state: s.enumOf(EVENT_STATES, '`draft`, `published` or `cancelled`.'),
};

const Event = s.object(
  {
    id: params.eventId,
    ...eventFields,
    seats_taken: s.integer('Registered attendees not cancelled.', { minimum: 0 }),
    created_at: s.dateTime('When the event was created.'),
  },
  [
    'id',
    'title',
    'description',
    'starts_at',
    'ends_at',
    'timezone',
    'location_type',
    'location',
    'capacity',
    'state',
    'seats_taken',
    'created_at',
  ],
  'An event.',
);

const EventCreate = s.object(
  eventFields,
  ['title', 'starts_at', 'ends_at', 'capacity'],
  'A new event; a draft unless `state` says otherwise.',
);
const EventUpdate = partial(s.object(eventFields, []), 'Event fields to change.');

const ticketFields = {
  name: s.string('Ticket name.', { minLength: 1, maxLength: 200, example: 'General admission' }),
  price_cents: cents('Ticket price; 0 for free.', 0),
  currency,
  quantity: s.integer('Tickets of this kind on offer.', { minimum: 1, maximum: 100_000, example: 50 }),
};

const Ticket = s.object(
  { id: s.id('The ticket id.', 'tkt_0001'), event_id: params.eventId, ...ticketFields },
  ['id', 'event_id', 'name', 'price_cents', 'currency', 'quantity'],
  'A kind of ticket for an event.',
);

const Attendee = s.object(
  {
    id: s.id('The attendee id.', 'att_0001'),
    event_id: params.eventId,
    ticket_id: s.id('The ticket id.', 'tkt_0001'),
    member_id: params.memberId,
    member_email: s.email("The attendee's email."),
    member_name: s.string("The attendee's name."),
    state: s.enumOf(ATTENDEE_STATES, 'Attendance state.'),
    registered_at: s.dateTime('When they registered.'),
  },
  ['id', 'event_id', 'ticket_id', 'member_id', 'member_email', 'member_name', 'state', 'registered_at'],
  'A member registered for an event.',
);

function eventView(state: SchoolState, event: SchoolEvent) {
  const taken = state.attendees.filter(
    (attendee) => attendee.event_id === event.id && attendee.state !== 'cancelled',
  ).length;
  return { ...event, seats_taken: taken };
}

function visibleEvent(state: SchoolState, id: string, staff: boolean): SchoolEvent {
  const event = findOrThrow(state.events, id, 'event');
  if (!staff && event.state !== 'published') throw notFound('event', id);
  return event;
}

function checkTimes(event: Pick<SchoolEvent, 'starts_at' | 'ends_at'>): void {
  if (Date.parse(event.ends_at) <= Date.parse(event.starts_at))
    throw invalidInput([{ field: 'ends_at', message: 'must be after starts_at' }]);
}

function createEvent({ store, body }: HandlerContext) {
  const input = body as Pick<SchoolEvent, 'title' | 'starts_at' | 'ends_at' | 'capacity'> & Partial<SchoolEvent>;
  checkTimes(input);
  const event: SchoolEvent = {
    id: store.newId('evt'),
    title: input.title,
    description: input.description ?? '',
    starts_at: input.starts_at,
    ends_at: input.ends_at,
    timezone: input.timezone ?? store.state.school.timezone,
    location_type: input.location_type ?? 'online',
    location: input.location ?? '',
    capacity: input.capacity,
    state: input.state ?? 'draft',
    created_at: store.timestamp(),
  };
  store.state.events.push(event);
  return eventView(store.state, event);
}

function updateEvent({ store, params: { eventId }, body }: HandlerContext) {
  const event = findOrThrow(store.state.events, eventId!, 'event');
  const patch = body as Partial<SchoolEvent>;
  checkTimes({ starts_at: patch.starts_at ?? event.starts_at, ends_at: patch.ends_at ?? event.ends_at });
  applyPatch(event, patch);
  return eventView(store.state, event);
}

function createTicket({ store, params: { eventId }, body }: HandlerContext) {
  const event = findOrThrow(store.state.events, eventId!, 'event');
  const input = body as Pick<Ticket, 'name' | 'quantity'> & Partial<Ticket>;
  const ticket: Ticket = {
    id: store.newId('tkt'),
    event_id: event.id,
    name: input.name,
    price_cents: input.price_cents ?? 0,
    currency: input.currency ?? store.state.school.currency,
    quantity: input.quantity,
  };
  store.state.tickets.push(ticket);
  return ticket;
}

function listAttendees({ store, params: { eventId }, query }: HandlerContext) {
  findOrThrow(store.state.events, eventId!, 'event');
  const attendees = store.state.attendees
    .filter((attendee) => attendee.event_id === eventId && inStates(query['state'], attendee.state))
    .map((attendee) => {
      const member = store.state.members.find((candidate) => candidate.id === attendee.member_id);
      return { ...attendee, member_email: member?.email ?? '', member_name: member?.name ?? '' };
    });
  return paginate(attendees, query['page'] as number, query['per_page'] as number);
}

const eventParam = { eventId: params.eventId };

const routes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/events',
    operationId: 'list_events',
    summary: 'List events',
    description:
      'Lists events by start time. Filter by `starts_after`/`starts_before` or `state`. Without a token only published events are listed.',
    group: 'events',
    scopes: ['events:read'],
    anonymous: 'public',
    list: true,
    query: {
      state: s.oneOrMoreOf(EVENT_STATES, 'Only events in one of these states.'),
      starts_after: s.dateOrDateTime('Starting at or after this moment.', '2025-03-01'),
      starts_before: s.dateOrDateTime('Starting before this moment.', '2025-04-01'),
    },
    response: { status: 200, schema: s.ref('Event'), description: 'A page of events.' },
    handler: ({ store, caller, query }) => {
      const staff = isStaff(caller);
      const events = store.state.events
        .filter(
          (event) =>
            (staff || event.state === 'published') &&
            inStates(query['state'], event.state) &&
            inRange(event.starts_at, query['starts_after'], query['starts_before'], store.state.school.timezone),
        )
        .sort((a, b) => a.starts_at.localeCompare(b.starts_at))
        .map((event) => eventView(store.state, event));
      return paginate(events, query['page'] as number, query['per_page'] as number);
    },
  },
  {
    method: 'POST',
    path: '/api/v1/events',
    operationId: 'create_event',
    summary: 'Create an event',
    description: 'Creates an event (a draft unless `state: published`). Then add tickets with create_event_ticket.',
    group: 'events',
    scopes: ['events:write'],
    anonymous: 'private',
    body: { schema: s.ref('EventCreate') },
    response: { status: 201, schema: s.ref('Event'), description: 'The created event.' },
    handler: createEvent,
  },
  {
    method: 'GET',
    path: '/api/v1/events/:eventId',
    operationId: 'get_event',
    summary: 'Get an event',
    description: 'Gets one event with its seat count.',
    group: 'events',
    scopes: ['events:read'],
    anonymous: 'public',
    params: eventParam,
    response: { status: 200, schema: s.ref('Event'), description: 'The event.' },
    handler: ({ store, caller, params: { eventId } }) =>
      eventView(store.state, visibleEvent(store.state, eventId!, isStaff(caller))),
  },
  {
    method: 'PATCH',
    path: '/api/v1/events/:eventId',
    operationId: 'update_event',
    summary: 'Update an event',
    description: 'Changes only the given fields; `state: published` opens registration, `cancelled` calls it off.',
    group: 'events',
    scopes: ['events:write'],
    anonymous: 'private',
    params: eventParam,
    body: { schema: s.ref('EventUpdate') },
    response: { status: 200, schema: s.ref('Event'), description: 'The event as stored.' },
    handler: updateEvent,
  },
  {
    method: 'GET',
    path: '/api/v1/events/:eventId/tickets',
    operationId: 'list_event_tickets',
    summary: 'List the tickets of an event',
    description: 'Lists the kinds of ticket on offer for an event.',
    group: 'events',
    scopes: ['events:read'],
    anonymous: 'public',
    params: eventParam,
    list: true,
    response: { status: 200, schema: s.ref('Ticket'), description: 'A page of tickets.' },
    handler: ({ store, caller, params: { eventId }, query }) => {
      visibleEvent(store.state, eventId!, isStaff(caller));
      const tickets = store.state.tickets.filter((ticket) => ticket.event_id === eventId);
      return paginate(tickets, query['page'] as number, query['per_page'] as number);
    },
  },
  {
    method: 'POST',
    path: '/api/v1/events/:eventId/tickets',
    operationId: 'create_event_ticket',
    summary: 'Add a ticket to an event',
    description: 'Offers a kind of ticket (free or paid) for an event.',
    group: 'events',
    scopes: ['events:write'],
    anonymous: 'private',
    params: eventParam,
    body: { schema: s.object(ticketFields, ['name', 'quantity'], 'A new ticket.') },
    response: { status: 201, schema: s.ref('Ticket'), description: 'The created ticket.' },
    handler: createTicket,
  },
  {
    method: 'GET',
    path: '/api/v1/events/:eventId/attendees',
    operationId: 'list_event_attendees',
    summary: 'List who registered for an event',
    description: 'Lists the attendees of an event with their email and attendance state.',
    group: 'events',
    scopes: ['events:read'],
    anonymous: 'private',
    params: eventParam,
    list: true,
    query: { state: s.oneOrMoreOf(ATTENDEE_STATES, 'Only attendees in one of these states.') },
    response: { status: 200, schema: s.ref('Attendee'), description: 'A page of attendees.' },
    handler: listAttendees,
  },
];

export const eventFamily: RouteFamily = {
  group: 'events',
  description: 'Events with tickets and attendees. Published events and their tickets are public.',
  schemas: { Event, EventCreate, EventUpdate, Ticket, Attendee },
  routes,
};
