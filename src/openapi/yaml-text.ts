/**
 * YAML text to a plain value, for documents schools publish as YAML. js-yaml's event parser
 * (YAML 1.2, core schema) reads the GitHub REST description (2.4 MB) about seven times faster
 * than the `yaml` package's document model did, which every first start on a YAML document paid.
 *
 * The events are checked before anything is built from them:
 * - nesting is bounded while parsing (the parser recurses once per level), API-12;
 * - a tag the core schema does not know (`!!js/function`, `!custom`) is read as `!`, the
 *   non-specific tag, so the node stays inert text or a plain collection, with a warning;
 * - aliases may add only so many nodes to what the text itself holds: one alias costs nothing
 *   while parsing, but every walk of the document that follows visits the aliased node again,
 *   and nine levels of ten aliases each are a billion nodes.
 * @see SECURITY.md API-08
 * @see SECURITY.md API-12
 */
import { createRequire } from 'node:module';
import type { Event } from 'js-yaml';
import { MAX_DOCUMENT_DEPTH, tooDeepError } from './document-depth.js';
import { openApiError } from './openapi-error.js';

/** Nodes that aliases may add to the document, over those written in its text; real documents add none. */
export const MAX_YAML_ALIAS_NODES = 100_000;

/** The core schema's tags, as a document spells them; `!` is the non-specific tag. */
const CORE_TAGS = new Set(['!', '!!str', '!!int', '!!float', '!!bool', '!!null', '!!seq', '!!map']);

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
    events = jsYaml.parseEvents(text, { maxDepth: MAX_DOCUMENT_DEPTH });
  } catch (error) {
    if (reasonOf(error).startsWith('nesting exceeded maxDepth')) throw tooDeepError(source);
    throw syntaxError(source, error);
  }
  const warnings = neutralizeUnknownTags(events, text).map((tag) => `YAML in ${source}: Unresolved tag ${tag.text} at ${lineAndColumn(text, tag.offset)}; read as plain text.`);
  if (aliasExpansion(events, text) > MAX_YAML_ALIAS_NODES) {
    throw openApiError('OPENAPI_SYNTAX', `The YAML document from ${source} expands too many aliases (more than ${MAX_YAML_ALIAS_NODES} nodes beyond its text).`, 'Remove the YAML aliases.');
  }
  let documents: unknown[];
  try {
    documents = jsYaml.constructFromEvents(events, { source: text, schema: jsYaml.CORE_SCHEMA });
  } catch (error) {
    throw syntaxError(source, error);
  }
  if (documents.length > 1) {
    throw openApiError('OPENAPI_SYNTAX', `The OpenAPI document from ${source} holds ${documents.length} YAML documents; one is expected.`, 'Keep one document in the file, without `---` separators between several.');
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
    rewritten.push({ text: tag, offset: event.tagStart });
    event.tagEnd = event.tagStart + 1;
  }
  return rewritten;
}

/**
 * Pure: how many nodes the document's aliases add, each alias counting every node of what it
 * names, aliases inside that included. An alias to a collection still open (a loop) counts one
 * here; the reference check refuses the loop itself (OPENAPI_CYCLIC_DOCUMENT).
 */
export function aliasExpansion(events: readonly Event[], text: string): number {
  /** The open documents and collections: the nodes each holds so far, aliases expanded. */
  const open: { nodes: number; anchor: string | undefined }[] = [];
  const anchored = new Map<string, number>();
  let added = 0;
  const close = (nodes: number, anchor: string | undefined) => {
    if (anchor !== undefined) anchored.set(anchor, nodes);
    const parent = open.at(-1);
    if (parent !== undefined) parent.nodes += nodes;
  };
  for (const event of events) {
    switch (event.type) {
      case DOCUMENT:
        open.push({ nodes: 0, anchor: undefined });
        break;
      case SEQUENCE:
      case MAPPING:
        open.push({ nodes: 1, anchor: event.anchorStart < 0 ? undefined : text.slice(event.anchorStart, event.anchorEnd) });
        break;
      case SCALAR:
        close(1, event.anchorStart < 0 ? undefined : text.slice(event.anchorStart, event.anchorEnd));
        break;
      case ALIAS: {
        const nodes = anchored.get(text.slice(event.anchorStart, event.anchorEnd)) ?? 1;
        added += nodes;
        close(nodes, undefined);
        break;
      }
      case POP: {
        const done = open.pop();
        if (done !== undefined) close(done.nodes, done.anchor);
        break;
      }
    }
  }
  return added;
}

function reasonOf(error: unknown): string {
  const reason = (error as { reason?: unknown }).reason;
  return typeof reason === 'string' ? reason : error instanceof Error ? error.message : String(error);
}

function syntaxError(source: string, error: unknown) {
  const mark = (error as { mark?: { line?: number; column?: number } }).mark;
  const where = typeof mark?.line === 'number' && typeof mark.column === 'number' ? ` at line ${mark.line + 1}, column ${mark.column + 1}` : '';
  // The reason and its place only: js-yaml's message also quotes the document's lines.
  return openApiError('OPENAPI_SYNTAX', `The OpenAPI document from ${source} is neither valid JSON nor valid YAML: ${reasonOf(error)}${where}.`, 'Fix the document syntax.', error);
}

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `line ${line}, column ${offset - before.lastIndexOf('\n')}`;
}
