/**
 * Reads the school's OpenAPI document: `{school}/openapi.json` without a token, or `--openapi`
 * FILE|URL. Network reads go only to the school's origin, follow no redirect, time out, are
 * capped at 5 MiB and must be JSON or YAML (API-08). With a config directory, the last good copy
 * is kept in it (ST-07), revalidated with its `ETag`/`Last-Modified`, and used (with a warning)
 * when the school cannot be reached or answers 5xx.
 * @see SECURITY.md API-08, ST-07
 */
import { readFile, stat } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isSchoolMcpError, SchoolMcpError } from '../errors.js';
import { checkSchoolUrl, SCHOOL_URL_RULE, type DocumentFetch, type DocumentResponse } from '../network/index.js';
import { quotedText } from '../school-text/index.js';
import { openDocumentCache, type CachedDocument, type DocumentCache } from './document-cache.js';
import {
  MAX_DOCUMENT_BYTES,
  formatFromFileName,
  formatFromMediaType,
  parseDocumentText,
  resolvedFormat,
  type ApiDocument,
  type ParseDocumentOptions,
  type ParsedDocument,
} from './parse-document.js';
import { parsedCopyName, parsedCopyText } from './parsed-copy.js';
import { readCappedText } from './read-capped-body.js';

type DocumentSource = 'network' | 'revalidated' | 'cache-fallback' | 'file';

export interface LoadDocumentOptions {
  readonly schoolUrl: string;
  /** `--openapi`: a file path, a `file:` URL, or an http(s) URL on the school's origin. */
  readonly openapi?: string;
  /** Node's own http client in production (the network part's `documentFetch`), or any `fetch`; called with `redirect: 'manual'`. */
  readonly fetch: DocumentFetch;
  /** The private config directory; the last good copy is kept in it. No caching without it. */
  readonly configDirectory?: string;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** For the cache's `storedAt`; tests pass a fixed clock. */
  readonly now?: () => Date;
  /** The caller keeps its catalogue in the cache too: the cache is opened even for a JSON file. */
  readonly keepsCatalogue?: boolean;
}

export interface LoadedDocument {
  readonly document: ApiDocument;
  readonly source: DocumentSource;
  /** The URL or file path it was read from. */
  readonly location: string;
  readonly warnings: readonly string[];
}

/** The document's text as read, before it is parsed: what a catalogue cache is keyed by. */
export interface DocumentText {
  readonly text: string;
  readonly source: DocumentSource;
  readonly location: string;
  /** How the text is parsed; its source name and format are part of what a parse gives. */
  readonly parsing: ParseDocumentOptions;
  /** The OpenAPI cache, when there is a config directory and it can be trusted. */
  readonly cache: DocumentCache | undefined;
  /** What reading found so far (an ignored cache entry, a fallback to the cached copy). */
  readonly warnings: readonly string[];
  /**
   * Keeps a copy fetched from the network as the last good one; called once the text is known to
   * be a usable document. Resolves to the warnings of a copy that could not be kept.
   */
  keep(): Promise<readonly string[]>;
}

const DEFAULT_DOCUMENT_TIMEOUT_MS = 15_000;

export async function loadDocument(options: LoadDocumentOptions): Promise<LoadedDocument> {
  const { parseWarnings: _parseWarnings, ...loaded } = await parseDocumentRead(await readDocumentText(options));
  return loaded;
}

/** The text of the document, from the file, the network or the cache, not yet parsed. */
export async function readDocumentText(options: LoadDocumentOptions): Promise<DocumentText> {
  const target = documentTarget(options.schoolUrl, options.openapi);
  if (target.kind === 'file') return readFileText(target.path, options);
  return readUrlText(target.url, options);
}

/** A load with what the parse alone said, among its warnings. */
export interface ParsedRead extends LoadedDocument {
  readonly parseWarnings: readonly string[];
}

/** Parses what `readDocumentText` read, then keeps it. */
export async function parseDocumentRead(read: DocumentText): Promise<ParsedRead> {
  const parsed = await parseKeepingCopy(read.text, read.parsing, read.cache);
  const kept = await read.keep();
  return {
    document: parsed.document,
    source: read.source,
    location: read.location,
    warnings: [...read.warnings, ...parsed.warnings, ...kept],
    parseWarnings: parsed.warnings,
  };
}

const nothingToKeep = () => Promise.resolve([]);

type DocumentTarget = { readonly kind: 'file'; readonly path: string } | { readonly kind: 'url'; readonly url: string };

/** Pure: where the document comes from, refusing a URL on another origin than the school's. */
export function documentTarget(schoolUrl: string, openapi: string | undefined): DocumentTarget {
  const verdict = checkSchoolUrl(schoolUrl);
  if (!verdict.ok) {
    throw new SchoolMcpError(
      'OPENAPI_BAD_SCHOOL_URL',
      `The school URL ${JSON.stringify(schoolUrl.slice(0, 200))} is not one the bridge talks to: ${SCHOOL_URL_RULE}.`,
      { hint: 'Pass the school as https://host.' },
    );
  }
  const school = verdict.url;
  if (openapi === undefined)
    return { kind: 'url', url: `${school.origin}${school.pathname.replace(/\/+$/, '')}/openapi.json` };
  const given = parseUrl(openapi);
  if (given?.protocol === 'file:') return { kind: 'file', path: fileURLToPath(given) };
  if (given?.protocol !== 'https:' && given?.protocol !== 'http:') return { kind: 'file', path: resolvePath(openapi) };
  if (given.origin !== school.origin) {
    throw new SchoolMcpError(
      'OPENAPI_FOREIGN_ORIGIN',
      `The OpenAPI URL ${given.origin} is not on the school's origin ${school.origin}.`,
      { hint: 'Download the document and pass it as a file: --openapi ./openapi.json.' },
    );
  }
  return { kind: 'url', url: given.href };
}

async function readFileText(path: string, options: LoadDocumentOptions): Promise<DocumentText> {
  let text: string;
  try {
    const info = await stat(path);
    if (info.size > MAX_DOCUMENT_BYTES) {
      throw new SchoolMcpError(
        'OPENAPI_TOO_LARGE',
        `${path} is ${info.size} bytes, over the ${MAX_DOCUMENT_BYTES}-byte cap.`,
        { hint: 'Pass a smaller document.' },
      );
    }
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (isSchoolMcpError(error)) throw error;
    throw new SchoolMcpError('OPENAPI_FILE_UNREADABLE', `Cannot read the OpenAPI file ${path}.`, {
      hint: 'Check the path given to --openapi.',
      cause: error,
    });
  }
  const format = formatFromFileName(path);
  const warnings: string[] = [];
  // A JSON file has no parsed copy to keep; the cache is opened for it only when a catalogue is kept there.
  const wanted =
    options.configDirectory !== undefined &&
    (options.keepsCatalogue === true || resolvedFormat(text, format) !== 'json');
  const cache =
    wanted && options.configDirectory !== undefined ? await openCache(options.configDirectory, warnings) : undefined;
  const parsing: ParseDocumentOptions = format === undefined ? { source: path } : { source: path, format };
  return { text, source: 'file', location: path, parsing, cache, warnings, keep: nothingToKeep };
}

async function readUrlText(url: string, options: LoadDocumentOptions): Promise<DocumentText> {
  const warnings: string[] = [];
  const cache = options.configDirectory === undefined ? undefined : await openCache(options.configDirectory, warnings);
  const cached = await cache?.read(url);
  const headers: Record<string, string> = { accept: 'application/json, application/yaml;q=0.9, */*;q=0.1' };
  if (cached?.etag) headers['if-none-match'] = cached.etag;
  if (cached?.lastModified) headers['if-modified-since'] = cached.lastModified;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_DOCUMENT_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;

  let response: DocumentResponse;
  let body: string;
  try {
    response = await options.fetch(url, { method: 'GET', headers, redirect: 'manual', signal });
    if (response.status === 304) return fromCache(cached, cache, url, 'revalidated', [], warnings);
    if (response.status >= 500) {
      await response.body?.cancel().catch(() => undefined);
      return fromCache(cached, cache, url, 'cache-fallback', [`answered HTTP ${response.status}`], warnings);
    }
    refuseUnusable(response, url);
    body = await readCappedText(response, MAX_DOCUMENT_BYTES, url);
  } catch (error) {
    if (isSchoolMcpError(error)) throw error;
    return fromCache(
      cached,
      cache,
      url,
      'cache-fallback',
      [`could not be reached (${describeFailure(error)})`],
      warnings,
      error,
    );
  }

  const format = formatFromMediaType(response.headers.get('content-type'));
  const parsing: ParseDocumentOptions =
    format === 'json' || format === 'yaml' ? { source: url, format } : { source: url };
  const keep = async (): Promise<readonly string[]> => {
    if (cache === undefined) return [];
    const entry: CachedDocument = {
      url,
      etag: response.headers.get('etag') ?? undefined,
      lastModified: response.headers.get('last-modified') ?? undefined,
      storedAt: (options.now?.() ?? new Date()).toISOString(),
      body,
    };
    return cache.write(entry).then(
      () => [],
      (error: unknown) => [
        `The OpenAPI document could not be cached in ${options.configDirectory}: ${describeFailure(error)}.`,
      ],
    );
  };
  return { text: body, source: 'network', location: url, parsing, cache, warnings, keep };
}

/**
 * `parseDocumentText`, with a YAML document read from its JSON copy in the cache when there is
 * one, and its copy stored when there is none. The copy goes through the same checks as any JSON
 * document (cap, nesting, shape); a copy that fails them is ignored and the YAML parsed instead.
 */
async function parseKeepingCopy(
  text: string,
  options: ParseDocumentOptions,
  cache: DocumentCache | undefined,
): Promise<ParsedDocument> {
  if (cache === undefined || resolvedFormat(text, options.format) === 'json') return parseDocumentText(text, options);
  const name = parsedCopyName(text);
  const copy = await cache.readParsedCopy(name);
  if (copy !== undefined) {
    try {
      return parseDocumentText(copy, { source: options.source, format: 'json' });
    } catch {
      // An unreadable copy costs only the time it saves.
    }
  }
  const parsed = parseDocumentText(text, options);
  const json = parsedCopyText(parsed);
  if (json !== undefined && Buffer.byteLength(json) <= MAX_DOCUMENT_BYTES)
    await cache.writeParsedCopy(name, json).catch(() => undefined);
  return parsed;
}

/** Redirects, client errors and non-JSON/YAML answers end the load (no cache fallback: the school answered). */
function refuseUnusable(response: DocumentResponse, url: string): void {
  if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
    void response.body?.cancel().catch(() => undefined);
    const location = response.headers.get('location');
    throw new SchoolMcpError(
      'OPENAPI_REDIRECT',
      `${url} answered with a redirect${location ? ` to ${quotedText(location)}` : ''}; redirects are not followed.`,
      { hint: 'Pass the final URL of the document on the school origin, or the document itself with --openapi FILE.' },
    );
  }
  if (response.status !== 200) {
    void response.body?.cancel().catch(() => undefined);
    throw new SchoolMcpError('OPENAPI_HTTP_STATUS', `${url} answered HTTP ${response.status}.`, {
      hint:
        response.status === 404
          ? 'This school publishes no /openapi.json; pass the document with --openapi FILE.'
          : 'Check the school URL.',
    });
  }
  if (formatFromMediaType(response.headers.get('content-type')) === 'refused') {
    void response.body?.cancel().catch(() => undefined);
    throw new SchoolMcpError(
      'OPENAPI_CONTENT_TYPE',
      `${url} answered with ${quotedText(response.headers.get('content-type'), 100)}, not JSON or YAML.`,
      { hint: 'Check that the school URL is right; a login or error page is not an API description.' },
    );
  }
}

/** A cache that cannot be trusted is not used: the document then comes from the network alone. */
async function openCache(configDirectory: string, warnings: string[]): Promise<DocumentCache | undefined> {
  try {
    return await openDocumentCache(configDirectory, warnings);
  } catch (error) {
    warnings.push(`The OpenAPI document is not cached: ${describeFailure(error)}`);
    return undefined;
  }
}

/** The cached copy when the network could not give one, with a warning saying so. */
function fromCache(
  cached: CachedDocument | undefined,
  cache: DocumentCache | undefined,
  url: string,
  source: 'revalidated' | 'cache-fallback',
  failure: readonly string[],
  earlier: readonly string[],
  cause?: unknown,
): DocumentText {
  if (!cached) {
    const reason = failure[0] ?? 'answered 304 Not Modified to a request without validators';
    throw new SchoolMcpError(
      source === 'revalidated' ? 'OPENAPI_HTTP_STATUS' : 'OPENAPI_FETCH_FAILED',
      `The school's OpenAPI document ${url} ${reason}, and no cached copy exists.`,
      {
        hint: 'Check the school URL and your network, then try again; or pass the document with --openapi FILE.',
        cause,
      },
    );
  }
  const warnings =
    source === 'cache-fallback'
      ? [`The school ${failure.join(', ')}; using the copy of ${url} cached at ${cached.storedAt}.`, ...earlier]
      : [...earlier];
  return {
    text: cached.body,
    source,
    location: url,
    parsing: { source: `the cached copy of ${url}` },
    cache,
    warnings,
    keep: nothingToKeep,
  };
}

function describeFailure(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError') return 'timed out';
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`.slice(0, 200);
  }
  return String(error).slice(0, 200);
}

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
