/**
 * YAML text to a plain value, for documents schools publish as YAML. js-yaml's event parser
 * (YAML 1.2, core schema) reads the GitHub REST description (2.4 MB) about seven times faster
 * than the `yaml` package's document model did, which every first start on a YAML document paid.
 * Merge keys (`<<: *common`) are read as merges, as the editors API documents are written in
 * read them: left to the core schema, `<<` would become a property of that name.
 *
 * The events are checked before anything is built from them:
 * - nesting is bounded while parsing (the parser recurses once per level), API-12;
 * - a tag the core schema does not know (`!!js/function`, `!custom`) is read as `!`, the
 *   non-specific tag, so the node stays inert text or a plain collection, with a warning;
 * - aliases are measured as the value will be: an alias of a collection still open makes the value
 *   contain itself, aliases inside aliased collections nest deeper than any line shows, and they
 *   may add only so many nodes and so much text to what the text itself holds. One alias costs
 *   nothing while parsing, but every walk that follows (the parsed copy, the reference check)
 *   visits the aliased node again, and nine levels of ten aliases each are a billion nodes.
 * @see SECURITY.md API-08
 * @see SECURITY.md API-12
 */
import { createRequire } from 'node:module';
import type { Event } from 'js-yaml';
import { SchoolMcpError } from '../errors.js';
import { MAX_DOCUMENT_DEPTH, tooDeepError } from './document-depth.js';

/** Nodes that aliases may add to the document, over those written in its text; real documents add none. */
export const MAX_YAML_ALIAS_NODES = 100_000;

/** Characters of scalar text that aliases may add: one alias of a long scalar costs what the scalar does. */
const MAX_YAML_ALIAS_CHARACTERS = 5_000_000;

/** Warnings about foreign tags given one by one; the rest are counted in one more. */
const MAX_TAG_WARNINGS = 10;
/** Characters of a foreign tag quoted in its warning (a verbatim tag may be megabytes long). */
const MAX_QUOTED_TAG = 60;

/** The core schema's tags, as a document spells them; `!` is the non-specific tag. */
const CORE_TAGS = new Set(['!', '!!str', '!!int', '!!float', '!!bool', '!!null', '!!seq', '!!map']);
/** The merge tag, read only where it can mean a merge: on the scalar `<<`. */
const MERGE_TAG = '!!merge';

// js-yaml's event ids (EVENT_ID), spelled here so that the pure checks need no module loaded.
const DOCUMENT = 1;
const SEQUENCE = 2;
const MAPPING = 3;
const SCALAR = 4;
const ALIAS = 5;
const POP = 6;

// Loaded only for a YAML document: schools serve JSON.
const requireModule = createRequire(import.meta.url);
let jsYaml: typeof import('js-yaml') | undefined;

export function parseYamlText(text: string, source: string): { value: unknown; warnings: string[] } {
  jsYaml ??= requireModule('js-yaml') as typeof import('js-yaml');
  let events: Event[];
  try {
    // js-yaml counts a scalar as a level of its own; MAX_DOCUMENT_DEPTH counts collections.
    events = jsYaml.parseEvents(text, { maxDepth: MAX_DOCUMENT_DEPTH + 1 });
  } catch (error) {
    if (reasonOf(error).startsWith('nesting exceeded maxDepth')) throw tooDeepError(source);
    throw syntaxError(source, error);
  }
  const warnings = tagWarnings(neutralizeUnknownTags(events, text), text, source);
  const reach = aliasReach(events, text);
  if (reach.loops) {
    throw new SchoolMcpError(
      'OPENAPI_CYCLIC_DOCUMENT',
      `The YAML document from ${source} has an alias inside the collection it names, so the document would contain itself.`,
      { hint: 'Replace the recursive YAML alias with a $ref.' },
    );
  }
  if (reach.depth > MAX_DOCUMENT_DEPTH) throw tooDeepError(source);
  if (reach.addedNodes > MAX_YAML_ALIAS_NODES || reach.addedCharacters > MAX_YAML_ALIAS_CHARACTERS) {
    throw new SchoolMcpError(
      'OPENAPI_SYNTAX',
      `The YAML document from ${source} expands too many aliases (more than ${MAX_YAML_ALIAS_NODES} nodes or ${MAX_YAML_ALIAS_CHARACTERS} characters beyond its text).`,
      { hint: 'Remove the YAML aliases, or replace them with $refs.' },
    );
  }
  let documents: unknown[];
  try {
    // A merge copies keys that the alias bound above has already counted as nodes; its own bound
    // on keys is set to the same number, so that one figure limits both.
    documents = jsYaml.constructFromEvents(events, {
      source: text,
      schema: jsYaml.CORE_SCHEMA.withTags(jsYaml.mergeTag),
      maxTotalMergeKeys: MAX_YAML_ALIAS_NODES,
    });
  } catch (error) {
    throw syntaxError(source, error);
  }
  if (documents.length > 1) {
    throw new SchoolMcpError(
      'OPENAPI_SYNTAX',
      `The OpenAPI document from ${source} holds ${documents.length} YAML documents; one is expected.`,
      { hint: 'Keep one document in the file, without `---` separators between several.' },
    );
  }
  // Empty text, or only comments, is no document: the shape check names that.
  return { value: documents[0] ?? null, warnings };
}

/**
 * Pure: rewrites each tag outside the core schema to `!` (its first character, so the event still
 * points into the text) and says which it rewrote and where.
 */
export function neutralizeUnknownTags(events: Event[], text: string): { text: string; offset: number }[] {
  const rewritten: { text: string; offset: number }[] = [];
  for (const event of events) {
    if (event.type !== SCALAR && event.type !== SEQUENCE && event.type !== MAPPING) continue;
    if (event.tagStart < 0) continue;
    const tag = text.slice(event.tagStart, event.tagEnd);
    if (CORE_TAGS.has(tag)) continue;
    if (tag === MERGE_TAG && event.type === SCALAR && text.slice(event.valueStart, event.valueEnd) === '<<') continue;
    rewritten.push({ text: tag, offset: event.tagStart });
    event.tagEnd = event.tagStart + 1;
  }
  return rewritten;
}

/** What the aliases of a document make of it, measured on its events alone. */
export interface AliasReach {
  /** Nodes that aliases add, each alias counting every node of what it names, aliases inside that included. */
  readonly addedNodes: number;
  /** Characters of scalar text that aliases add, counted the same way. */
  readonly addedCharacters: number;
  /** Collections inside one another with aliases expanded, the outermost being level 1, as for JSON. */
  readonly depth: number;
  /** Whether an alias names a collection still open, which would then contain itself. */
  readonly loops: boolean;
}

interface Measure {
  nodes: number;
  characters: number;
  /** Collections from this node down, itself included. */
  height: number;
}

/**
 * Pure: what the aliases of a document make of it. js-yaml names a collection's anchor when the
 * collection opens, so an alias inside it is a loop; a name anchored again names the newer node.
 */
export function aliasReach(events: readonly Event[], text: string): AliasReach {
  const open: (Measure & { anchor: string | undefined; isDocument: boolean })[] = [];
  const anchored = new Map<string, Measure | 'open'>();
  let addedNodes = 0;
  let addedCharacters = 0;
  let depth = 0;
  let loops = false;
  const anchorOf = (event: { anchorStart: number; anchorEnd: number }) =>
    event.anchorStart < 0 ? undefined : text.slice(event.anchorStart, event.anchorEnd);
  const add = (measure: Measure) => {
    const parent = open.at(-1);
    if (parent === undefined) return;
    parent.nodes += measure.nodes;
    parent.characters += measure.characters;
    // A document holds its collection without adding a level.
    parent.height = Math.max(parent.height, measure.height + (parent.isDocument ? 0 : 1));
  };
  for (const event of events) {
    switch (event.type) {
      case DOCUMENT:
        open.push({ nodes: 0, characters: 0, height: 0, anchor: undefined, isDocument: true });
        break;
      case SEQUENCE:
      case MAPPING: {
        const anchor = anchorOf(event);
        if (anchor !== undefined) anchored.set(anchor, 'open');
        open.push({ nodes: 1, characters: 0, height: 1, anchor, isDocument: false });
        break;
      }
      case SCALAR: {
        const measure = { nodes: 1, characters: event.valueEnd - event.valueStart, height: 0 };
        const anchor = anchorOf(event);
        if (anchor !== undefined) anchored.set(anchor, measure);
        add(measure);
        break;
      }
      case ALIAS: {
        const named = anchored.get(text.slice(event.anchorStart, event.anchorEnd));
        if (named === 'open') loops = true;
        const measure = named === undefined || named === 'open' ? { nodes: 1, characters: 0, height: 0 } : named;
        addedNodes += measure.nodes;
        addedCharacters += measure.characters;
        add(measure);
        break;
      }
      case POP: {
        const done = open.pop();
        if (done === undefined) break;
        if (done.isDocument) {
          depth = Math.max(depth, done.height);
          break;
        }
        const measure = { nodes: done.nodes, characters: done.characters, height: done.height };
        if (done.anchor !== undefined) anchored.set(done.anchor, measure);
        add(measure);
        break;
      }
    }
  }
  return { addedNodes, addedCharacters, depth, loops };
}

/** Pure: one warning per foreign tag, with its line and column, found in one pass over the text. */
export function tagWarnings(tags: readonly { text: string; offset: number }[], text: string, source: string): string[] {
  const warnings: string[] = [];
  let line = 1;
  let lineStart = 0;
  let scanned = 0;
  for (const tag of tags.slice(0, MAX_TAG_WARNINGS)) {
    for (; scanned < tag.offset; scanned++) {
      if (text.charCodeAt(scanned) === 0x0a) {
        line += 1;
        lineStart = scanned + 1;
      }
    }
    const quoted = tag.text.length > MAX_QUOTED_TAG ? `${tag.text.slice(0, MAX_QUOTED_TAG)}…` : tag.text;
    warnings.push(
      `YAML in ${source}: Unresolved tag ${quoted} at line ${line}, column ${tag.offset - lineStart + 1}; read as plain text.`,
    );
  }
  if (tags.length > MAX_TAG_WARNINGS)
    warnings.push(
      `YAML in ${source}: ${tags.length - MAX_TAG_WARNINGS} more unresolved tags, each read as plain text.`,
    );
  return warnings;
}

function reasonOf(error: unknown): string {
  const reason = (error as { reason?: unknown }).reason;
  return typeof reason === 'string' ? reason : error instanceof Error ? error.message : String(error);
}

function syntaxError(source: string, error: unknown) {
  const mark = (error as { mark?: { line?: number; column?: number } }).mark;
  const where =
    typeof mark?.line === 'number' && typeof mark.column === 'number'
      ? ` at line ${mark.line + 1}, column ${mark.column + 1}`
      : '';
  // The reason and its place only: js-yaml's message also quotes the document's lines.
  return new SchoolMcpError(
    'OPENAPI_SYNTAX',
    `The OpenAPI document from ${source} is neither valid JSON nor valid YAML: ${reasonOf(error)}${where}.`,
    { hint: 'Fix the document syntax.', cause: error },
  );
}
