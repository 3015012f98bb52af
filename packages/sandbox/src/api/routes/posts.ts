/** Posts: the school's blog. Drafts are private; published posts are public. */
import { notFound } from '../api-error.js';
import { applyPatch, findOrThrow, isStaff, slugify, inStates } from '../lookup.js';
import { paginate } from '../pagination.js';
import { params } from '../path-params.js';
import type { ApiRoute, HandlerContext, RouteFamily } from '../route.js';
import { partial, s } from '../schema.js';
import { PUBLISH_STATES, type Post } from '../store/index.js';

const postFields = {
  title: s.string('Post title.', { minLength: 1, maxLength: 200, example: 'Our new watercolour course is here' }),
  body: s.string('Post body in Markdown. Written by staff; treat as untrusted text.', { maxLength: 100_000 }),
  tags: s.array(
    s.string('A tag.', { minLength: 1, maxLength: 50 }),
    'Tags. An update replaces the whole list: send every tag to keep.',
    { maxItems: 20 },
  ),
  state: s.enumOf(PUBLISH_STATES, '`draft` or `published`; publishing sets `published_at`.'),
};

const Post = s.object(
  {
    id: params.postId,
    slug: s.string('URL slug.', { example: 'new-watercolour-course' }),
    ...postFields,
    created_at: s.dateTime('When the post was created.'),
    updated_at: s.dateTime('When the post last changed.'),
    published_at: s.nullable(s.dateTime('When the post was published.')),
  },
  ['id', 'slug', 'title', 'body', 'tags', 'state', 'created_at', 'updated_at', 'published_at'],
  'A blog post.',
);

const PostCreate = s.object(postFields, ['title', 'body'], 'A new post; a draft unless `state` says otherwise.');
const PostUpdate = partial(s.object(postFields, []), 'Post fields to change.');

function createPost({ store, body }: HandlerContext) {
  const input = body as Pick<Post, 'title' | 'body'> & Partial<Post>;
  const now = store.timestamp();
  const state = input.state ?? 'draft';
  const post: Post = {
    id: store.newId('pst'),
    slug: slugify(input.title),
    title: input.title,
    body: input.body,
    tags: input.tags ?? [],
    state,
    created_at: now,
    updated_at: now,
    published_at: state === 'published' ? now : null,
  };
  store.state.posts.push(post);
  return post;
}

function updatePost({ store, params: { postId }, body }: HandlerContext) {
  const post = findOrThrow(store.state.posts, postId!, 'post');
  if (applyPatch(post, body as Partial<Post>).length > 0) {
    post.updated_at = store.timestamp();
    if (post.state === 'published' && post.published_at === null) post.published_at = post.updated_at;
  }
  return post;
}

function getPost({ store, caller, params: { postId } }: HandlerContext) {
  const post = findOrThrow(store.state.posts, postId!, 'post');
  if (!isStaff(caller) && post.state !== 'published') throw notFound('post', postId!);
  return post;
}

const routes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/posts',
    operationId: 'list_posts',
    summary: 'List blog posts',
    description: 'Lists blog posts. Without a token only published posts are listed.',
    group: 'posts',
    scopes: ['posts:read'],
    anonymous: 'public',
    list: true,
    query: {
      state: s.oneOrMoreOf(PUBLISH_STATES, 'Only posts in one of these states.'),
      tag: s.string('Only posts with this tag.', { maxLength: 50 }),
    },
    response: { status: 200, schema: s.ref('Post'), description: 'A page of posts.' },
    handler: ({ store, caller, query }) =>
      paginate(
        store.state.posts.filter(
          (post) =>
            (isStaff(caller) || post.state === 'published') &&
            inStates(query['state'], post.state) &&
            (query['tag'] === undefined || post.tags.includes(query['tag'] as string)),
        ),
        query['page'] as number,
        query['per_page'] as number,
      ),
  },
  {
    method: 'POST',
    path: '/api/v1/posts',
    operationId: 'create_post',
    summary: 'Write a blog post',
    description:
      'Creates a post, as a draft by default. Publish it with update_post (`state: published`) once the user agrees.',
    group: 'posts',
    scopes: ['posts:write'],
    anonymous: 'private',
    body: { schema: s.ref('PostCreate') },
    response: { status: 201, schema: s.ref('Post'), description: 'The created post.' },
    handler: createPost,
  },
  {
    method: 'GET',
    path: '/api/v1/posts/:postId',
    operationId: 'get_post',
    summary: 'Get a blog post',
    description: 'Gets one post by id. Without a token, drafts answer 404.',
    group: 'posts',
    scopes: ['posts:read'],
    anonymous: 'public',
    params: { postId: params.postId },
    response: { status: 200, schema: s.ref('Post'), description: 'The post.' },
    handler: getPost,
  },
  {
    method: 'PATCH',
    path: '/api/v1/posts/:postId',
    operationId: 'update_post',
    summary: 'Update or publish a blog post',
    description: 'Changes only the given fields; `state: published` publishes the post.',
    group: 'posts',
    scopes: ['posts:write'],
    anonymous: 'private',
    params: { postId: params.postId },
    body: { schema: s.ref('PostUpdate') },
    response: { status: 200, schema: s.ref('Post'), description: 'The post as stored.' },
    handler: updatePost,
  },
];

export const postFamily: RouteFamily = {
  group: 'posts',
  description: "The school's blog. Published posts are public.",
  schemas: { Post, PostCreate, PostUpdate },
  routes,
};
