/**
 * Search over a catalogue for the dynamic mode (`search_operations`): query words are matched
 * against each operation's tool name, title, toolset, path, tags and description, best field
 * first. Pure and deterministic: equal scores keep catalogue order.
 */
import type { ToolCatalog } from './catalog.js';
import type { Operation } from './operation.js';
import { snakeCase } from './tool-names.js';

export interface SearchResult {
  readonly operation: Operation;
  readonly score: number;
}

export const DEFAULT_SEARCH_LIMIT = 10;

/** Field weights: a word in the tool name says more than the same word in the description. */
const WEIGHTS = { name: 4, title: 3, toolset: 3, path: 2, tags: 2, description: 1 } as const;
type Field = keyof typeof WEIGHTS;

/** Everyday verbs an agent may use for the API's own. */
const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  add: ['create', 'post'],
  new: ['create'],
  make: ['create'],
  remove: ['delete'],
  cancel: ['delete'],
  edit: ['update'],
  change: ['update'],
  modify: ['update'],
  set: ['update'],
  show: ['get'],
  fetch: ['get'],
  read: ['get', 'list'],
  find: ['list', 'search'],
  all: ['list'],
  upload: ['create', 'file'],
};

const STOP_WORDS = new Set(['a', 'an', 'the', 'of', 'for', 'to', 'in', 'on', 'by', 'with', 'and', 'or', 'my', 'me', 'i', 'is', 'it', 'this', 'that']);

type IndexedOperation = { readonly operation: Operation; readonly fields: ReadonlyMap<Field, ReadonlySet<string>> };

const indexes = new WeakMap<ToolCatalog, readonly IndexedOperation[]>();

export function searchOperations(catalog: ToolCatalog, query: string, limit = DEFAULT_SEARCH_LIMIT): SearchResult[] {
  const words = [...new Set(searchWords(query))];
  const index = indexOf(catalog);
  if (words.length === 0) return index.slice(0, limit).map(({ operation }) => ({ operation, score: 0 }));
  const results: SearchResult[] = [];
  for (const entry of index) {
    let total = 0;
    let matched = 0;
    for (const word of words) {
      const score = Math.max(wordScore(entry, word), ...(SYNONYMS[word] ?? []).map((synonym) => wordScore(entry, synonym) * 0.75));
      total += score;
      if (score > 0) matched += 1;
    }
    // Operations that match every word come before those that match many words weakly.
    if (total > 0) results.push({ operation: entry.operation, score: round(total * (matched / words.length)) });
  }
  // Array.prototype.sort is stable, so ties keep catalogue order.
  return results.sort((a, b) => b.score - a.score).slice(0, Math.max(0, limit));
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

function wordScore(entry: IndexedOperation, word: string): number {
  let best = 0;
  for (const [field, words] of entry.fields) {
    const weight = WEIGHTS[field];
    if (weight <= best) continue;
    if (words.has(word)) best = weight;
    else if (word.length >= 3 && [...words].some((candidate) => candidate.startsWith(word))) best = Math.max(best, weight / 2);
  }
  return best;
}

function indexOf(catalog: ToolCatalog): readonly IndexedOperation[] {
  const cached = indexes.get(catalog);
  if (cached) return cached;
  const index = catalog.operations.map((operation) => ({
    operation,
    fields: new Map<Field, ReadonlySet<string>>([
      ['name', new Set(searchWords(operation.toolName))],
      ['title', new Set(searchWords(operation.title))],
      ['toolset', new Set(searchWords(operation.toolset))],
      ['path', new Set(searchWords(operation.pathTemplate.replace(/\{[^}]*\}/g, ' ')))],
      ['tags', new Set(operation.tags.flatMap(searchWords))],
      ['description', new Set(searchWords(operation.description))],
    ]),
  }));
  indexes.set(catalog, index);
  return index;
}

function round(score: number): number {
  return Math.round(score * 100) / 100;
}
