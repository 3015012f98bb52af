/** Digital products: downloadable things the school sells (e-books, templates). Published ones are public. */
import { notFound } from '../api-error.js';
import { applyPatch, findOrThrow, isStaff, inStates } from '../lookup.js';
import { cents, currency } from '../money.js';
import { paginate } from '../pagination.js';
import { params } from '../path-params.js';
import type { ApiRoute, HandlerContext, RouteFamily } from '../route.js';
import { partial, s } from '../schema.js';
import { PUBLISH_STATES, type DigitalProduct } from '../store/index.js';

const productFields = {
  title: s.string('Product title.', { minLength: 1, maxLength: 200, example: 'Colour-mixing cheat sheet' }),
  description: s.string('What the buyer gets.', { maxLength: 10_000 }),
  price_cents: cents('Price.', 900),
  currency,
  file_url: s.nullable(s.uri('The downloadable file, e.g. one returned by upload_file.')),
  state: s.enumOf(PUBLISH_STATES, 'Only published products are sold.'),
};

const DigitalProduct = s.object(
  {
    id: params.productId,
    ...productFields,
    downloads: s.integer('Number of downloads so far.', { minimum: 0 }),
    created_at: s.dateTime('When the product was created.'),
    updated_at: s.dateTime('When the product last changed.'),
  },
  [
    'id',
    'title',
    'description',
    'price_cents',
    'currency',
    'file_url',
    'state',
    'downloads',
    'created_at',
    'updated_at',
  ],
  'A digital product.',
);

const DigitalProductCreate = s.object(
  productFields,
  ['title', 'price_cents'],
  'A new digital product (draft unless `state` says otherwise).',
);
const DigitalProductUpdate = partial(s.object(productFields, []), 'Product fields to change.');

function visibleProduct({ store, caller, params: { productId } }: HandlerContext): DigitalProduct {
  const product = findOrThrow(store.state.digital_products, productId!, 'digital product');
  if (!isStaff(caller) && product.state !== 'published') throw notFound('digital product', productId!);
  return product;
}

function createProduct({ store, body }: HandlerContext) {
  const input = body as Pick<DigitalProduct, 'title' | 'price_cents'> & Partial<DigitalProduct>;
  const now = store.timestamp();
  const product: DigitalProduct = {
    id: store.newId('dgp'),
    title: input.title,
    description: input.description ?? '',
    price_cents: input.price_cents,
    currency: input.currency ?? store.state.school.currency,
    file_url: input.file_url ?? null,
    state: input.state ?? 'draft',
    downloads: 0,
    created_at: now,
    updated_at: now,
  };
  store.state.digital_products.push(product);
  return product;
}

function updateProduct({ store, params: { productId }, body }: HandlerContext) {
  const product = findOrThrow(store.state.digital_products, productId!, 'digital product');
  if (applyPatch(product, body as Partial<DigitalProduct>).length > 0) product.updated_at = store.timestamp();
  return product;
}

const productParam = { productId: params.productId };

const routes: ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/digital_products',
    operationId: 'list_digital_products',
    summary: 'List digital products',
    description: 'Lists digital products. Without a token only published ones are listed.',
    group: 'digital_products',
    scopes: ['digital_products:read'],
    anonymous: 'public',
    list: true,
    query: { state: s.oneOrMoreOf(PUBLISH_STATES, 'Only products in one of these states.') },
    response: { status: 200, schema: s.ref('DigitalProduct'), description: 'A page of digital products.' },
    handler: ({ store, caller, query }) =>
      paginate(
        store.state.digital_products.filter(
          (product) => (isStaff(caller) || product.state === 'published') && inStates(query['state'], product.state),
        ),
        query['page'] as number,
        query['per_page'] as number,
      ),
  },
  {
    method: 'POST',
    path: '/api/v1/digital_products',
    operationId: 'create_digital_product',
    summary: 'Create a digital product',
    description: 'Creates a digital product. Upload its file first with upload_file and pass the URL as `file_url`.',
    group: 'digital_products',
    scopes: ['digital_products:write'],
    anonymous: 'private',
    body: { schema: s.ref('DigitalProductCreate') },
    response: { status: 201, schema: s.ref('DigitalProduct'), description: 'The created product.' },
    handler: createProduct,
  },
  {
    method: 'GET',
    path: '/api/v1/digital_products/:productId',
    operationId: 'get_digital_product',
    summary: 'Get a digital product',
    description: 'Gets one digital product by id.',
    group: 'digital_products',
    scopes: ['digital_products:read'],
    anonymous: 'public',
    params: productParam,
    response: { status: 200, schema: s.ref('DigitalProduct'), description: 'The product.' },
    handler: visibleProduct,
  },
  {
    method: 'PATCH',
    path: '/api/v1/digital_products/:productId',
    operationId: 'update_digital_product',
    summary: 'Update a digital product',
    description: 'Changes only the given fields; `state: published` puts it on sale.',
    group: 'digital_products',
    scopes: ['digital_products:write'],
    anonymous: 'private',
    params: productParam,
    body: { schema: s.ref('DigitalProductUpdate') },
    response: { status: 200, schema: s.ref('DigitalProduct'), description: 'The product as stored.' },
    handler: updateProduct,
  },
];

export const digitalProductFamily: RouteFamily = {
  group: 'digital_products',
  description: 'Downloadable products. Published ones are public.',
  schemas: { DigitalProduct, DigitalProductCreate, DigitalProductUpdate },
  routes,
};
