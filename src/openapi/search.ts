/**
 * Search over a catalogue for the dynamic mode (`search_operations`). Query words (stemmed, so
 * "courses" finds "course") are matched against each operation's tool name, summary, toolset,
 * path, parameters, tags and description, best field first. Three rules keep a wrong operation
 * from coming first:
 * - an operation must match every word of what the query is about (not only its verb), one of
 *   them in its own fields rather than its description, or nothing matches;
 * - a name with words the query did not ask for ranks below one without them ("list courses"
 *   prefers `list_courses` to `list_favourite_courses`);
 * - a query that asks to change data (create, update, delete) gets only operations that make that
 *   kind of change (by method, or by the verb in their name), never a read.
 * Pure and deterministic: equal scores keep catalogue order.
 */
import type { ToolCatalog } from './catalog.js';
import type { HttpMethod, Operation } from './operation.js';
import { snakeCase } from './tool-names.js';

export interface SearchResult {
  readonly operation: Operation;
  readonly score: number;
}

const DEFAULT_SEARCH_LIMIT = 10;

/** Field weights: a word in the tool name says more than the same word in the description. */
const WEIGHTS = { name: 4, title: 3, toolset: 3, path: 2, tags: 2, verb: 2, parameters: 1.5, description: 1 } as const;
type Field = keyof typeof WEIGHTS;

/** The fields an operation's subject shows in; a word found only in the description is not enough. */
const SUBJECT_FIELDS: readonly Field[] = ['name', 'title', 'toolset', 'path', 'tags', 'parameters'];

type Intent = 'read' | 'create' | 'update' | 'delete';

/** Verbs an agent may use, with what they ask for and the API's own words for it. */
const VERBS: Readonly<Record<string, { readonly intent: Intent; readonly synonyms: readonly string[] }>> = {
  list: { intent: 'read', synonyms: ['get'] },
  get: { intent: 'read', synonyms: ['list'] },
  show: { intent: 'read', synonyms: ['get'] },
  fetch: { intent: 'read', synonyms: ['get'] },
  read: { intent: 'read', synonyms: ['get', 'list'] },
  view: { intent: 'read', synonyms: ['get'] },
  retrieve: { intent: 'read', synonyms: ['get'] },
  find: { intent: 'read', synonyms: ['list', 'search'] },
  search: { intent: 'read', synonyms: ['list'] },
  all: { intent: 'read', synonyms: ['list'] },
  create: { intent: 'create', synonyms: [] },
  add: { intent: 'create', synonyms: ['create', 'post'] },
  new: { intent: 'create', synonyms: ['create'] },
  make: { intent: 'create', synonyms: ['create'] },
  upload: { intent: 'create', synonyms: ['create', 'file'] },
  update: { intent: 'update', synonyms: [] },
  edit: { intent: 'update', synonyms: ['update'] },
  change: { intent: 'update', synonyms: ['update'] },
  modify: { intent: 'update', synonyms: ['update'] },
  set: { intent: 'update', synonyms: ['update'] },
  replace: { intent: 'update', synonyms: ['update'] },
  delete: { intent: 'delete', synonyms: [] },
  remove: { intent: 'delete', synonyms: ['delete'] },
  cancel: { intent: 'delete', synonyms: ['delete'] },
  destroy: { intent: 'delete', synonyms: ['delete'] },
};

/** The verbs a method stands for, so that "delete member" finds `DELETE /members/{id}` by its method too. */
const METHOD_VERBS: Readonly<Record<HttpMethod, readonly string[]>> = {
  get: ['get', 'list', 'read'],
  head: ['get'],
  options: [],
  trace: [],
  post: ['create', 'add'],
  put: ['update', 'replace'],
  patch: ['update'],
  delete: ['delete', 'remove'],
};

const METHOD_INTENT: Readonly<Record<HttpMethod, Intent | undefined>> = {
  get: 'read',
  head: 'read',
  options: undefined,
  trace: undefined,
  post: 'create',
  put: 'update',
  patch: 'update',
  delete: 'delete',
};

const STOP_WORDS = new Set(['a', 'an', 'the', 'of', 'for', 'to', 'in', 'on', 'by', 'with', 'and', 'or', 'my', 'me', 'i', 'is', 'it', 'this', 'that']);

/** Results under this share of the best score are noise, not alternatives. */
const MIN_SHARE_OF_BEST = 0.25;

type IndexedOperation = {
  readonly operation: Operation;
  readonly fields: ReadonlyMap<Field, ReadonlySet<string>>;
  readonly nameWords: readonly string[];
};

const indexes = new WeakMap<ToolCatalog, readonly IndexedOperation[]>();

export function searchOperations(catalog: ToolCatalog, query: string, limit = DEFAULT_SEARCH_LIMIT): SearchResult[] {
  const words = [...new Set(searchWords(query))];
  const index = indexOf(catalog);
  if (words.length === 0) return index.slice(0, limit).map(({ operation }) => ({ operation, score: 0 }));
  const subjectWords = words.filter((word) => VERBS[word] === undefined);
  const intent = words.map((word) => VERBS[word]?.intent).find((found) => found !== undefined);
  const asked = new Set(words.flatMap((word) => [word, ...(VERBS[word]?.synonyms ?? [])]));

  const results: SearchResult[] = [];
  for (const entry of index) {
    if (!fitsIntent(entry, intent, words)) continue;
    const required = subjectWords.length > 0 ? subjectWords : words;
    if (!required.some((word) => SUBJECT_FIELDS.some((field) => fieldScore(entry, field, word) > 0) || synonymInSubject(entry, word))) continue;
    // Every word of the subject must be found somewhere: "refund order" is not "list orders".
    if (!subjectWords.every((word) => wordScore(entry, word) > 0)) continue;
    let total = 0;
    let matched = 0;
    for (const word of words) {
      const score = Math.max(wordScore(entry, word), ...(VERBS[word]?.synonyms ?? []).map((synonym) => wordScore(entry, synonym) * 0.75));
      total += score;
      if (score > 0) matched += 1;
    }
    // Operations that match every word come before those that match many words weakly, and a
    // name made of the query's words before one with more words in it.
    const covered = entry.nameWords.filter((word) => asked.has(word) || (intent !== undefined && VERBS[word]?.intent === intent));
    const nameCoverage = entry.nameWords.length === 0 ? 1 : covered.length / entry.nameWords.length;
    const score = total * (matched / words.length) * (0.5 + 0.5 * nameCoverage) * intentFactor(entry, intent, words);
    if (score > 0) results.push({ operation: entry.operation, score: round(score) });
  }
  // Array.prototype.sort is stable, so ties keep catalogue order.
  results.sort((a, b) => b.score - a.score);
  const best = results[0]?.score ?? 0;
  return results.filter((result) => result.score >= best * MIN_SHARE_OF_BEST).slice(0, Math.max(0, limit));
}

/** Lower-case word stems: `listCourses /course-players` → `list course course player`. */
export function searchWords(text: string): string[] {
  return snakeCase(text)
    .split('_')
    .filter((word) => word !== '' && !STOP_WORDS.has(word))
    .map(stem);
}

function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/**
 * The methods that can make each kind of change: an update is often a POST to an action
 * (`POST /orders/{id}/refund`); a delete or a creation is what it says.
 */
const COMPATIBLE_INTENTS: Readonly<Record<Exclude<Intent, 'read'>, readonly Intent[]>> = {
  create: ['create'],
  update: ['update', 'create'],
  delete: ['delete'],
};

/** A change is answered only by operations that make it; a read never satisfies one. */
function fitsIntent(entry: IndexedOperation, intent: Intent | undefined, words: readonly string[]): boolean {
  if (intent === undefined || intent === 'read') return true;
  const own = METHOD_INTENT[entry.operation.method];
  if (own === undefined || own === 'read') return false;
  return COMPATIBLE_INTENTS[intent].includes(own) || namesVerbOf(entry, words);
}

/** `cancel_subscription` is a POST, and still exactly what "cancel subscription" asks for. */
function namesVerbOf(entry: IndexedOperation, words: readonly string[]): boolean {
  return words.some((word) => VERBS[word] !== undefined && [word, ...VERBS[word]!.synonyms].some((verb) => entry.nameWords.includes(verb)));
}

/** A read asked for: a change that matches as well comes after the reads. */
function intentFactor(entry: IndexedOperation, intent: Intent | undefined, words: readonly string[]): number {
  if (intent !== 'read') return 1;
  return METHOD_INTENT[entry.operation.method] === 'read' || namesVerbOf(entry, words) ? 1 : 0.5;
}

function synonymInSubject(entry: IndexedOperation, word: string): boolean {
  return (VERBS[word]?.synonyms ?? []).some((synonym) => SUBJECT_FIELDS.some((field) => fieldScore(entry, field, synonym) > 0));
}

function fieldScore(entry: IndexedOperation, field: Field, word: string): number {
  const words = entry.fields.get(field);
  if (words === undefined) return 0;
  if (words.has(word)) return WEIGHTS[field];
  if (word.length >= 3 && [...words].some((candidate) => candidate.startsWith(word))) return WEIGHTS[field] / 2;
  return 0;
}

function wordScore(entry: IndexedOperation, word: string): number {
  let best = 0;
  for (const field of entry.fields.keys()) {
    if (WEIGHTS[field] > best) best = Math.max(best, fieldScore(entry, field, word));
  }
  return best;
}

function indexOf(catalog: ToolCatalog): readonly IndexedOperation[] {
  const cached = indexes.get(catalog);
  if (cached) return cached;
  const index = catalog.operations.map((operation) => ({
    operation,
    nameWords: [...new Set(searchWords(operation.toolName))],
    fields: new Map<Field, ReadonlySet<string>>([
      ['name', new Set(searchWords(operation.toolName))],
      ['title', new Set(searchWords(operation.title))],
      ['toolset', new Set(searchWords(operation.toolset))],
      ['path', new Set(searchWords(operation.pathTemplate.replace(/\{[^}]*\}/g, ' ')))],
      ['tags', new Set(operation.tags.flatMap(searchWords))],
      ['verb', new Set(METHOD_VERBS[operation.method])],
      ['parameters', new Set([...operation.parameters.flatMap(parameterWords), ...bodyPropertyWords(operation)])],
      ['description', new Set(searchWords(operation.description))],
    ]),
  }));
  indexes.set(catalog, index);
  return index;
}

/** A parameter's name and the values it takes: "past due" finds `state: past_due`. */
function parameterWords(parameter: Operation['parameters'][number]): string[] {
  const values = Array.isArray(parameter.schema['enum']) ? parameter.schema['enum'].filter((value): value is string => typeof value === 'string') : [];
  return [parameter.name, ...values].flatMap(searchWords);
}

/** The top-level properties of a JSON body, which are arguments as much as parameters are. */
function bodyPropertyWords(operation: Operation): string[] {
  const properties = operation.body?.schema['properties'];
  if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) return [];
  return Object.keys(properties).flatMap(searchWords);
}

function round(score: number): number {
  return Math.round(score * 100) / 100;
}
