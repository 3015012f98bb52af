/**
 * Search over a catalogue (`search_operations`): ranked retrieval in the administrator's own words.
 * Every operation, listed as a tool of its own or not, is a document of fields (tool name, title,
 * toolset, path, tags, parameters, description); a query word scores by the fields it is found in,
 * weighted by field and by how rare the word is in the catalogue (an IDF, as in BM25: "coupon"
 * says more than "course"), and a word the query used finds its synonyms at a discount
 * (`search-vocabulary.ts`: "enrol someone in a class" finds `create_enrollment`). Any word may
 * match; an operation that matches more of them, and whose name is made of them, ranks higher.
 * What kind of call the query asks for decides the rest: a change is never answered with a read,
 * a removal only with a removal, and a read prefers reads.
 *
 * Written here rather than taken from a full-text library (minisearch 7 is small, has no
 * dependencies and runs on Node 20): the scoring is a few dozen lines over catalogues of at most a
 * few thousand short documents, while what decides the ranking (the domain's vocabulary, phrasal
 * verbs, and the change-versus-read rule) is ours either way, and the server stays free of a
 * runtime dependency for it. Pure and deterministic: equal scores keep catalogue order.
 */
import type { ToolCatalogue } from './catalogue.js';
import type { HttpMethod, Operation } from './operation.js';
import { intentOfRawWord, intentOfWord, namesOfIntent, relatedWords, type Intent } from './search-vocabulary.js';
import { rawWords, searchWords } from './search-words.js';

export { searchWords } from './search-words.js';

export interface SearchResult {
  readonly operation: Operation;
  readonly score: number;
}

const DEFAULT_SEARCH_LIMIT = 10;

/** Field weights: a word in the tool name or title says more than the same word in the description. */
const WEIGHTS = { name: 3, title: 3, toolset: 2, path: 1.5, tags: 1.5, parameters: 1, description: 0.6 } as const;
type Field = keyof typeof WEIGHTS;
const FIELDS = Object.keys(WEIGHTS) as Field[];

/** The fields that say what an operation is about. */
const SUBJECT_FIELDS: readonly Field[] = ['name', 'title', 'toolset', 'tags', 'parameters'];

/** A synonym counts for less than the word itself. */
const RELATED_FACTOR = 0.6;
/** Results under this share of the best score are noise, not alternatives. */
const MIN_SHARE_OF_BEST = 0.3;

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

interface IndexedOperation {
  readonly operation: Operation;
  readonly fields: ReadonlyMap<Field, ReadonlySet<string>>;
  readonly nameWords: readonly string[];
}

interface CatalogueIndex {
  readonly entries: readonly IndexedOperation[];
  /** How many operations hold each word, in any field. */
  readonly documentFrequency: ReadonlyMap<string, number>;
  /** The operations (positions in `entries`, ascending) that hold each word. */
  readonly postings: ReadonlyMap<string, readonly number[]>;
  /** Every word of every operation's name: the catalogue's resources and verbs. */
  readonly nameVocabulary: ReadonlySet<string>;
}

const indexes = new WeakMap<readonly Operation[], CatalogueIndex>();

export function searchOperations(
  catalogue: ToolCatalogue,
  query: string,
  limit = DEFAULT_SEARCH_LIMIT,
): SearchResult[] {
  return rankOperations(catalogue, query, true).slice(0, Math.max(0, limit));
}

/**
 * For a query that finds nothing: the operations about its subject whatever the kind of call
 * ("delete event" where events cannot be deleted: the events operations), best first.
 */
export function nearOperations(catalogue: ToolCatalogue, query: string, limit = 5): Operation[] {
  return rankOperations(catalogue, query, false)
    .slice(0, limit)
    .map((result) => result.operation);
}

/** The query's words that no operation of the catalogue holds, not even as a synonym. */
export function unknownWords(catalogue: ToolCatalogue, query: string): string[] {
  const index = indexOf(catalogue.operations);
  return rawWords(query).filter((word) => {
    const [stemmed] = searchWords(word);
    if (stemmed === undefined || intentOfWord(stemmed) !== undefined) return false;
    return ![stemmed, ...relatedWords(stemmed)].some((candidate) => index.documentFrequency.has(candidate));
  });
}

function rankOperations(catalogue: ToolCatalogue, query: string, byIntent: boolean): SearchResult[] {
  const index = indexOf(catalogue.operations);
  const words = [...new Set(searchWords(query))];
  if (words.length === 0) return index.entries.map(({ operation }) => ({ operation, score: 0 }));
  const intent = byIntent ? queryIntent(query, index) : undefined;
  // A verb that is also a thing of the domain ("upload", "schedule", "enrol") names the subject too.
  const subject = words.filter((word) => intentOfWord(word) === undefined || relatedWords(word).length > 0);
  const scored = subject.length > 0 ? subject : words;
  const verbs = words.filter((word) => intentOfWord(word) !== undefined);
  const asked = new Set([
    ...words,
    ...words.flatMap(relatedWords),
    ...(intent === undefined ? [] : namesOfIntent(intent)),
  ]);
  // Each word with the words it may stand for and what a field holding each is worth, worked out
  // once per query; only the operations that hold one of them are scored.
  const terms = new Map(
    scored.map((word) => [
      word,
      [
        { term: word, factor: inverseFrequency(index, word) },
        ...relatedWords(word).map((other) => ({
          term: other,
          factor: inverseFrequency(index, other) * RELATED_FACTOR,
        })),
      ].filter(({ term }) => index.postings.has(term)),
    ]),
  );
  const candidates = new Set<number>();
  for (const expanded of terms.values())
    for (const { term } of expanded) for (const position of index.postings.get(term)!) candidates.add(position);

  const results: SearchResult[] = [];
  for (const position of [...candidates].sort((a, b) => a - b)) {
    const entry = index.entries[position]!;
    const fit = intentFit(entry, intent, verbs);
    if (fit === 0) continue;
    let total = 0;
    let matched = 0;
    for (const expanded of terms.values()) {
      let score = 0;
      for (const { term, factor } of expanded) score = Math.max(score, fieldsScore(entry, term) * factor);
      total += score;
      if (score > 0) matched += 1;
    }
    // At least one word must name what the operation is about, not only a path it sits under or its description.
    if (
      matched === 0 ||
      ![...terms.values()].some((expanded) =>
        expanded.some(({ term }) => SUBJECT_FIELDS.some((field) => entry.fields.get(field)?.has(term))),
      )
    )
      continue;
    // The verb itself, where the operation is named by it ("cancel subscription").
    for (const verb of verbs) if (entry.nameWords.includes(verb)) total += WEIGHTS.name;
    const coverage = matched / scored.length;
    const covered = entry.nameWords.filter((word) => asked.has(word)).length;
    const nameFit = entry.nameWords.length === 0 ? 1 : covered / entry.nameWords.length;
    const score = total * (0.4 + 0.6 * coverage) * (0.6 + 0.4 * nameFit) * fit;
    results.push({ operation: entry.operation, score: round(score) });
  }
  // Array.prototype.sort is stable, so ties keep catalogue order.
  results.sort((a, b) => b.score - a.score);
  const best = results[0]?.score ?? 0;
  return results.filter((result) => result.score >= best * MIN_SHARE_OF_BEST);
}

/**
 * The kind of call asked for: the first verb's. "Add a tag to a member" adds to a member rather
 * than making a new thing when nothing in the catalogue is named by what is added (a tag is a
 * field): it is an update, and "remove a tag from a member" one too.
 */
function queryIntent(query: string, index: CatalogueIndex): Intent | undefined {
  const first = rawWords(query)
    .map(intentOfRawWord)
    .find((found) => found !== undefined);
  if (first !== 'create' && first !== 'delete') return first;
  const moved =
    /\b(?:add|put|append|attach|include|give|insert|remove|delete|drop|detach|take)\w*\s+(.+?)\s+(?:to|onto|into|from|off)\s+\S/i.exec(
      query,
    );
  if (moved === null) return first;
  const things = searchWords(moved[1] ?? '').filter((word) => intentOfWord(word) === undefined);
  const isResource = things.some((word) =>
    [word, ...relatedWords(word)].some((candidate) => index.nameVocabulary.has(candidate)),
  );
  return things.length > 0 && !isResource ? 'update' : first;
}

/**
 * How well an operation fits the kind of call asked for, from 0 (never) to 1. A change is never a
 * read; a removal is a DELETE or an operation named by a removal verb (`cancel_subscription`); a
 * creation and an update may be each other (an update is often a POST to an action, "add a tag"
 * is an update), at a discount. An operation named by the query's verb always fits.
 */
function intentFit(entry: IndexedOperation, intent: Intent | undefined, verbs: readonly string[]): number {
  const own = METHOD_INTENT[entry.operation.method];
  // A query without a verb is most often a read ("course reviews"): changes that match come after.
  if (intent === undefined) return own === 'read' ? 1 : 0.8;
  const namedBy = (names: readonly string[]) => names.some((name) => entry.nameWords.includes(name));
  if (namedBy(verbs)) return 1;
  if (intent === 'read') return own === 'read' ? 1 : 0.5;
  if (own === undefined || own === 'read') return 0;
  if (namedBy(namesOfIntent(intent))) return 1;
  if (intent === 'delete') return own === 'delete' ? 1 : 0;
  if (own === 'delete') return 0;
  if (own === intent) return 1;
  // A POST named by another action ("deploy", "cancel") is not a creation, and fits an update better than a plain create does.
  return intent === 'update' && own === 'create' && !namedBy(namesOfIntent('create')) ? 0.9 : 0.6;
}

/** The best field holding the word, and a quarter of each other one. */
function fieldsScore(entry: IndexedOperation, word: string): number {
  let best = 0;
  let sum = 0;
  for (const field of FIELDS) {
    if (!entry.fields.get(field)?.has(word)) continue;
    best = Math.max(best, WEIGHTS[field]);
    sum += WEIGHTS[field];
  }
  return best + 0.25 * (sum - best);
}

function inverseFrequency(index: CatalogueIndex, word: string): number {
  const n = index.entries.length;
  const df = index.documentFrequency.get(word) ?? 0;
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

function indexOf(operations: readonly Operation[]): CatalogueIndex {
  const cached = indexes.get(operations);
  if (cached) return cached;
  const entries = operations.map((operation) => {
    const nameWords = [...new Set(searchWords(operation.toolName))];
    const fields = new Map<Field, ReadonlySet<string>>([
      ['name', new Set(nameWords)],
      ['title', new Set(searchWords(operation.title))],
      ['toolset', new Set(searchWords(operation.toolset))],
      ['path', new Set(searchWords(operation.pathTemplate.replace(/\{[^}]*\}/g, ' ')))],
      ['tags', new Set(operation.tags.flatMap(searchWords))],
      ['parameters', new Set([...operation.parameters.flatMap(parameterWords), ...bodyPropertyWords(operation)])],
      ['description', new Set(searchWords(operation.description))],
    ]);
    return { operation, nameWords, fields };
  });
  const postings = new Map<string, number[]>();
  entries.forEach((entry, position) => {
    for (const word of new Set([...entry.fields.values()].flatMap((set) => [...set]))) {
      const holding = postings.get(word);
      if (holding === undefined) postings.set(word, [position]);
      else holding.push(position);
    }
  });
  const documentFrequency = new Map([...postings].map(([word, holding]) => [word, holding.length]));
  const index = {
    entries,
    documentFrequency,
    postings,
    nameVocabulary: new Set(entries.flatMap((entry) => entry.nameWords)),
  };
  indexes.set(operations, index);
  return index;
}

/** A parameter's name and the values it takes: "past due" finds `state: past_due`. */
function parameterWords(parameter: Operation['parameters'][number]): string[] {
  return [parameter.name, ...enumValues(parameter.schema), ...enumValues(parameter.schema['items'])].flatMap(
    searchWords,
  );
}

function enumValues(schema: unknown): string[] {
  const values =
    typeof schema === 'object' && schema !== null ? (schema as Record<string, unknown>)['enum'] : undefined;
  return Array.isArray(values) ? values.filter((value): value is string => typeof value === 'string') : [];
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
