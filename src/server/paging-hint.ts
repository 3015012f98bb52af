/**
 * One line that tells the agent how to get the next page, when the answer says there is one:
 * `next page: page=3` or `next page: cursor=abc`. The agent does the paging (API-07: no automatic
 * paging); the line spares it from working out which argument and value. Pure.
 */
const MORE_FLAGS = ['has_next_page', 'has_more', 'hasMore', 'hasNextPage', 'more'];
const CURSOR_ARGUMENTS = ['cursor', 'page_token', 'pageToken', 'starting_after', 'after', 'next_token'];
const CURSOR_VALUES = ['next_cursor', 'nextCursor', 'next_page_token', 'nextPageToken', 'next_token', 'cursor'];
const MAX_CURSOR_CHARS = 500;

export function pagingHint(
  result: Record<string, unknown>,
  args: Readonly<Record<string, unknown>>,
  argumentNames: readonly string[],
): string | undefined {
  const cursorArgument = CURSOR_ARGUMENTS.find((name) => argumentNames.includes(name));
  const cursor = CURSOR_VALUES.map((name) => result[name]).find(
    (value): value is string => typeof value === 'string' && value !== '',
  );
  if (cursorArgument !== undefined && cursor !== undefined && cursor.length <= MAX_CURSOR_CHARS)
    return `next page: ${cursorArgument}=${cursor}`;
  if (!argumentNames.includes('page')) return undefined;
  const more = MORE_FLAGS.some((name) => result[name] === true);
  const nextPage = typeof result['next_page'] === 'number' ? result['next_page'] : undefined;
  if (!more && nextPage === undefined) return undefined;
  const current =
    typeof result['page'] === 'number' ? result['page'] : typeof args['page'] === 'number' ? args['page'] : 1;
  return `next page: page=${nextPage ?? current + 1}`;
}
