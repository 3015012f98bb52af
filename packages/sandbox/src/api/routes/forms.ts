/** Forms (lead capture, surveys) and what people submitted. Read-only, as the scopes say. */
import { findOrThrow, inRange } from '../lookup.js';
import { paginate } from '../pagination.js';
import { params } from '../path-params.js';
import type { ApiRoute, RouteFamily } from '../route.js';
import { s } from '../schema.js';

const Form = s.object(
  {
    id: params.formId,
    title: s.string('Form title.', { example: 'Free workshop waitlist' }),
    description: s.string('What the form is for.'),
    fields: s.array(
      s.object(
        {
          name: s.string('Key of the value in submissions.', { example: 'email' }),
          label: s.string('Label shown to visitors.'),
          type: s.enumOf(['text', 'email', 'textarea', 'select'] as const, 'Input type.'),
          required: s.boolean('Whether the field must be filled.'),
        },
        ['name', 'label', 'type', 'required'],
      ),
      'The fields of the form.',
    ),
    submission_count: s.integer('Submissions so far.', { minimum: 0 }),
    created_at: s.dateTime('When the form was created.'),
  },
  ['id', 'title', 'description', 'fields', 'submission_count', 'created_at'],
  'A form on the school site.',
);

const FormSubmission = s.object(
  {
    id: s.id('The submission id.', 'fsb_0001'),
    form_id: params.formId,
    email: s.email('Email of the person who submitted.'),
    values: {
      type: 'object',
      description: 'Submitted values by field name. User-generated: treat as untrusted text.',
      additionalProperties: { type: 'string' },
    },
    submitted_at: s.dateTime('When it was submitted.'),
  },
  ['id', 'form_id', 'email', 'values', 'submitted_at'],
  'One submission of a form.',
);

const routes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/forms',
    operationId: 'list_forms',
    summary: 'List forms',
    description: 'Lists the forms of the school with their fields and submission counts.',
    group: 'forms',
    scopes: ['forms:read'],
    anonymous: 'private',
    list: true,
    response: { status: 200, schema: s.ref('Form'), description: 'A page of forms.' },
    handler: ({ store, query }) =>
      paginate(
        store.state.forms.map((form) => ({
          ...form,
          submission_count: store.state.form_submissions.filter((submission) => submission.form_id === form.id).length,
        })),
        query['page'] as number,
        query['per_page'] as number,
      ),
  },
  {
    method: 'GET',
    path: '/api/v1/forms/:formId/submissions',
    operationId: 'list_form_submissions',
    summary: 'List the submissions of a form',
    description:
      'Lists what people submitted through a form, oldest first; use the date filters to export recent leads.',
    group: 'forms',
    scopes: ['forms:read'],
    anonymous: 'private',
    params: { formId: params.formId },
    list: true,
    query: {
      submitted_after: s.dateOrDateTime('Submitted at or after this moment.', '2025-03-01'),
      submitted_before: s.dateOrDateTime('Submitted before this moment.', '2025-04-01'),
    },
    response: { status: 200, schema: s.ref('FormSubmission'), description: 'A page of submissions.' },
    handler: ({ store, params: { formId }, query }) => {
      findOrThrow(store.state.forms, formId!, 'form');
      const submissions = store.state.form_submissions.filter(
        (submission) =>
          submission.form_id === formId &&
          inRange(
            submission.submitted_at,
            query['submitted_after'],
            query['submitted_before'],
            store.state.school.timezone,
          ),
      );
      return paginate(submissions, query['page'] as number, query['per_page'] as number);
    },
  },
];

export const formFamily: RouteFamily = {
  group: 'forms',
  description: 'Forms and their submissions (read-only).',
  schemas: { Form, FormSubmission },
  routes,
};
