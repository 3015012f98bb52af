/**
 * Page-number pagination as the school's admin API does it: `page` from 1, `per_page` 20 by
 * default and 50 at most, and a body that says the total and whether another page follows.
 */
import { s, type JsonSchema } from './schema.js';

const DEFAULT_PER_PAGE = 20;
const MAX_PER_PAGE = 50;

export const paginationQuery: Record<string, JsonSchema> = {
  page: s.integer('Page number, from 1.', { minimum: 1, maximum: 100_000, default: 1, example: 1 }),
  per_page: s.integer(`Items per page (at most ${MAX_PER_PAGE}).`, {
    minimum: 1,
    maximum: MAX_PER_PAGE,
    default: DEFAULT_PER_PAGE,
    example: DEFAULT_PER_PAGE,
  }),
};

export interface Page<T> {
  items: T[];
  page: number;
  per_page: number;
  total: number;
  total_pages: number;
  has_next_page: boolean;
}

export function paginate<T>(all: readonly T[], page: number, perPage: number): Page<T> {
  const start = (page - 1) * perPage;
  const totalPages = Math.ceil(all.length / perPage);
  return {
    items: all.slice(start, start + perPage),
    page,
    per_page: perPage,
    total: all.length,
    total_pages: totalPages,
    has_next_page: page < totalPages,
  };
}

/** The schema of a page of `itemSchema` items. */
export function pageSchema(itemSchema: JsonSchema, description: string): JsonSchema {
  return s.object(
    {
      items: s.array(itemSchema, 'The items on this page.'),
      page: s.integer('This page number.', { minimum: 1 }),
      per_page: s.integer('Page size used.', { minimum: 1, maximum: MAX_PER_PAGE }),
      total: s.integer('Number of items across all pages.', { minimum: 0 }),
      total_pages: s.integer('Number of pages.', { minimum: 0 }),
      has_next_page: s.boolean('Whether `page + 1` has items.'),
    },
    ['items', 'page', 'per_page', 'total', 'total_pages', 'has_next_page'],
    description,
  );
}
