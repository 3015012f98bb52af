/**
 * Pages: landing pages of the school site, deployed as numbered versions. Deploying makes the
 * current HTML live; rolling back makes an earlier version live again. Public pages are public.
 */
import { ApiError, notFound } from '../api-error.js';
import { applyPatch, findOrThrow, isStaff, slugify } from '../lookup.js';
import { paginate } from '../pagination.js';
import { params } from '../path-params.js';
import type { ApiRoute, HandlerContext, RouteFamily } from '../route.js';
import { partial, s } from '../schema.js';
import { PUBLISH_STATES, type Page, type PageDeployment, type SchoolState } from '../store/index.js';

const pageFields = {
  title: s.string('Page title.', { minLength: 1, maxLength: 200, example: 'Spring sale' }),
  slug: s.string('URL path segment.', {
    minLength: 1,
    maxLength: 80,
    pattern: '^[a-z0-9]+(-[a-z0-9]+)*$',
    example: 'spring-sale',
  }),
  html: s.string("The page's HTML (draft until deployed).", { maxLength: 500_000, example: '<h1>Spring sale</h1>' }),
  visibility: s.enumOf(['public', 'members', 'hidden'] as const, 'Who may see the page once published.'),
};

const Page = s.object(
  {
    id: params.pageId,
    ...pageFields,
    state: s.enumOf(PUBLISH_STATES, '`published` once a version has been deployed.'),
    live_deployment_id: s.nullable(s.id('The deployment that is live.', 'dpl_0001')),
    created_at: s.dateTime('When the page was created.'),
    updated_at: s.dateTime('When the page last changed.'),
  },
  ['id', 'title', 'slug', 'html', 'visibility', 'state', 'live_deployment_id', 'created_at', 'updated_at'],
  'A page of the school site.',
);

const PageDeployment = s.object(
  {
    id: s.id('The deployment id.', 'dpl_0001'),
    page_id: params.pageId,
    version: s.integer('Version number, from 1.', { minimum: 1 }),
    html: s.string('The HTML of this version.'),
    message: s.string('Why it was deployed.'),
    status: s.enumOf(['live', 'superseded', 'rolled_back'] as const, 'Whether this version is the live one.'),
    created_at: s.dateTime('When it was deployed.'),
  },
  ['id', 'page_id', 'version', 'html', 'message', 'status', 'created_at'],
  "One deployed version of a page: the page's deployment log.",
);

const PageCreate = s.object(pageFields, ['title', 'html'], 'A new page (a draft until deployed).');
const PageUpdate = partial(s.object(pageFields, []), 'Page fields to change; HTML changes go live on the next deploy.');

function isPublicPage(state: SchoolState, page: Page): boolean {
  return (
    page.state === 'published' &&
    page.visibility === 'public' &&
    state.page_deployments.some((deployment) => deployment.id === page.live_deployment_id)
  );
}

/** Visitors see the live version's HTML, not the working draft. */
function publicPage(state: SchoolState, page: Page): Page {
  const live = state.page_deployments.find((deployment) => deployment.id === page.live_deployment_id);
  return { ...page, html: live?.html ?? '' };
}

function createPage({ store, body }: HandlerContext) {
  const input = body as Pick<Page, 'title' | 'html'> & Partial<Page>;
  const slug = input.slug ?? slugify(input.title);
  if (store.state.pages.some((page) => page.slug === slug))
    throw new ApiError('conflict', `the slug ${slug} is taken; choose another`);
  const now = store.timestamp();
  const page: Page = {
    id: store.newId('pag'),
    title: input.title,
    slug,
    html: input.html,
    visibility: input.visibility ?? 'public',
    state: 'draft',
    live_deployment_id: null,
    created_at: now,
    updated_at: now,
  };
  store.state.pages.push(page);
  return page;
}

function updatePage({ store, params: { pageId }, body }: HandlerContext) {
  const page = findOrThrow(store.state.pages, pageId!, 'page');
  const patch = body as Partial<Page>;
  if (
    patch.slug !== undefined &&
    store.state.pages.some((other) => other.slug === patch.slug && other.id !== page.id)
  ) {
    throw new ApiError('conflict', `the slug ${patch.slug} is taken; choose another`);
  }
  if (applyPatch(page, patch).length > 0) page.updated_at = store.timestamp();
  return page;
}

function makeLive(
  state: SchoolState,
  page: Page,
  deployment: PageDeployment,
  previousStatus: PageDeployment['status'],
): void {
  for (const other of state.page_deployments) {
    if (other.page_id === page.id && other.status === 'live') other.status = previousStatus;
  }
  deployment.status = 'live';
  page.live_deployment_id = deployment.id;
  page.state = 'published';
}

function deployPage({ store, params: { pageId }, body }: HandlerContext) {
  const page = findOrThrow(store.state.pages, pageId!, 'page');
  const versions = store.state.page_deployments.filter((deployment) => deployment.page_id === page.id);
  const deployment: PageDeployment = {
    id: store.newId('dpl'),
    page_id: page.id,
    version: versions.length + 1,
    html: page.html,
    message: (body as { message?: string } | undefined)?.message ?? '',
    status: 'live',
    created_at: store.timestamp(),
  };
  store.state.page_deployments.push(deployment);
  makeLive(store.state, page, deployment, 'superseded');
  page.updated_at = deployment.created_at;
  return deployment;
}

function rollbackPage({ store, params: { pageId }, body }: HandlerContext) {
  const page = findOrThrow(store.state.pages, pageId!, 'page');
  const { deployment_id: deploymentId } = body as { deployment_id: string };
  const target = findOrThrow(store.state.page_deployments, deploymentId, 'deployment');
  if (target.page_id !== page.id)
    throw new ApiError('not_found', `deployment ${deploymentId} is not a version of page ${pageId}`);
  if (target.status !== 'live') makeLive(store.state, page, target, 'rolled_back');
  page.html = target.html;
  page.updated_at = store.timestamp();
  return target;
}

const pageParam = { pageId: params.pageId };

const routes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/pages',
    operationId: 'list_pages',
    summary: 'List pages',
    description: 'Lists the pages of the school site. Without a token only live public pages are listed.',
    group: 'pages',
    scopes: ['pages:read'],
    anonymous: 'public',
    list: true,
    response: { status: 200, schema: s.ref('Page'), description: 'A page of site pages.' },
    handler: ({ store, caller, query }) => {
      const pages = isStaff(caller)
        ? store.state.pages
        : store.state.pages
            .filter((page) => isPublicPage(store.state, page))
            .map((page) => publicPage(store.state, page));
      return paginate(pages, query['page'] as number, query['per_page'] as number);
    },
  },
  {
    method: 'POST',
    path: '/api/v1/pages',
    operationId: 'create_page',
    summary: 'Create a page',
    description: 'Creates a draft page. It goes live with deploy_page.',
    group: 'pages',
    scopes: ['pages:write'],
    anonymous: 'private',
    body: { schema: s.ref('PageCreate') },
    response: { status: 201, schema: s.ref('Page'), description: 'The created page.' },
    conflicts: 'The slug is taken.',
    handler: createPage,
  },
  {
    method: 'GET',
    path: '/api/v1/pages/:pageId',
    operationId: 'get_page',
    summary: 'Get a page',
    description: 'Gets one page. Visitors see only live public pages, with the live HTML.',
    group: 'pages',
    scopes: ['pages:read'],
    anonymous: 'public',
    params: pageParam,
    response: { status: 200, schema: s.ref('Page'), description: 'The page.' },
    handler: ({ store, caller, params: { pageId } }) => {
      const page = findOrThrow(store.state.pages, pageId!, 'page');
      if (isStaff(caller)) return page;
      if (!isPublicPage(store.state, page)) throw notFound('page', pageId!);
      return publicPage(store.state, page);
    },
  },
  {
    method: 'PATCH',
    path: '/api/v1/pages/:pageId',
    operationId: 'update_page',
    summary: 'Update a page',
    description: 'Changes the working copy of a page; visitors see the change after deploy_page.',
    group: 'pages',
    scopes: ['pages:write'],
    anonymous: 'private',
    params: pageParam,
    body: { schema: s.ref('PageUpdate') },
    response: { status: 200, schema: s.ref('Page'), description: 'The page as stored.' },
    conflicts: 'The slug is taken.',
    handler: updatePage,
  },
  {
    method: 'POST',
    path: '/api/v1/pages/:pageId/deployments',
    operationId: 'deploy_page',
    summary: 'Deploy a page',
    description: "Makes the page's current HTML the live version and publishes the page.",
    group: 'pages',
    scopes: ['pages:write'],
    anonymous: 'private',
    params: pageParam,
    body: {
      schema: s.object(
        { message: s.string('Why this version is deployed.', { maxLength: 500, example: 'Spring sale copy' }) },
        [],
        'Deployment note.',
      ),
    },
    response: { status: 201, schema: s.ref('PageDeployment'), description: 'The new live version.' },
    handler: deployPage,
  },
  {
    method: 'GET',
    path: '/api/v1/pages/:pageId/deployments',
    operationId: 'list_page_deployments',
    summary: 'List the deployments of a page',
    description: "The page's deployment log: every version, newest first, and which one is live.",
    group: 'pages',
    scopes: ['pages:read'],
    anonymous: 'private',
    params: pageParam,
    list: true,
    response: { status: 200, schema: s.ref('PageDeployment'), description: 'A page of deployments.' },
    handler: ({ store, params: { pageId }, query }) => {
      findOrThrow(store.state.pages, pageId!, 'page');
      const deployments = store.state.page_deployments.filter((deployment) => deployment.page_id === pageId).reverse();
      return paginate(deployments, query['page'] as number, query['per_page'] as number);
    },
  },
  {
    method: 'POST',
    path: '/api/v1/pages/:pageId/rollback',
    operationId: 'rollback_page',
    summary: 'Roll a page back',
    description: 'Makes an earlier deployment live again (and the working copy its HTML).',
    group: 'pages',
    scopes: ['pages:write'],
    anonymous: 'private',
    params: pageParam,
    body: { schema: s.object({ deployment_id: s.id('The version to make live.', 'dpl_0001') }, ['deployment_id']) },
    response: { status: 200, schema: s.ref('PageDeployment'), description: 'The deployment that is live now.' },
    handler: rollbackPage,
  },
];

export const pageFamily: RouteFamily = {
  group: 'pages',
  description: 'Site pages, their deployments and rollbacks. Live public pages are public.',
  schemas: { Page, PageCreate, PageUpdate, PageDeployment },
  routes,
};
