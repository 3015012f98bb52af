/**
 * The API base URL that tool paths are appended to. The bearer token only ever goes to the
 * school's own origin, so the document's `servers` can contribute a path prefix on that origin and
 * nothing else: an entry on another origin (at the root, on a path item or an operation, or
 * reached through server variables) is ignored with a warning. Relative server URLs are resolved
 * against the school URL, where the document is served (OpenAPI 3.x Server Object).
 * @see SECURITY.md API-01, ST-15
 */
import { checkSchoolUrl, SCHOOL_URL_RULE } from '../network/index.js';
import { SchoolMcpError } from '../errors.js';
import { HTTP_METHODS } from './operations.js';
import { arrayOr, entriesOf, isRecord, recordOr, type JsonRecord } from './json-value.js';

export interface ApiBase {
  /** Origin plus path prefix, without a trailing slash, e.g. `https://school.example/api/v1`. */
  readonly baseUrl: string;
  readonly origin: string;
  readonly warnings: readonly string[];
}

export function resolveApiBase(document: JsonRecord, schoolUrl: string): ApiBase {
  const school = parseSchoolUrl(schoolUrl);
  const schoolBase = `${school.origin}${school.pathname.replace(/\/+$/, '')}`;
  const warnings = new Set<string>();
  let baseUrl: string | undefined;

  for (const server of arrayOr(document['servers'])) {
    const candidate = sameOriginBase(server, schoolBase, school.origin, 'the document root', warnings);
    if (candidate !== undefined && baseUrl === undefined) baseUrl = candidate;
  }
  const chosen = baseUrl ?? schoolBase;

  for (const [path, item] of entriesOf(document['paths'])) {
    const pathItem = recordOr(item);
    checkNestedServers(pathItem['servers'], `path ${path}`, schoolBase, school.origin, chosen, warnings);
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (isRecord(operation))
        checkNestedServers(
          operation['servers'],
          `${method.toUpperCase()} ${path}`,
          schoolBase,
          school.origin,
          chosen,
          warnings,
        );
    }
  }
  return { baseUrl: chosen, origin: school.origin, warnings: [...warnings] };
}

/**
 * Whether `apiBase` is one `resolveApiBase` can give for `schoolUrl`: on the school's origin, as
 * its origin plus a path without a trailing slash, with nothing else in it (no credentials, query
 * or fragment); none when there is no school URL. A catalogue read back from the cache holds an
 * API base, and the token goes wherever it points (ST-15).
 */
export function isApiBaseOf(
  apiBase: Pick<ApiBase, 'baseUrl' | 'origin'> | undefined,
  schoolUrl: string | undefined,
): boolean {
  if (apiBase === undefined || schoolUrl === undefined) return apiBase === undefined && schoolUrl === undefined;
  const verdict = checkSchoolUrl(schoolUrl);
  if (!verdict.ok || apiBase.origin !== verdict.url.origin || !URL.canParse(apiBase.baseUrl)) return false;
  const url = new URL(apiBase.baseUrl);
  return (
    url.origin === verdict.url.origin &&
    url.username === '' &&
    url.password === '' &&
    `${url.origin}${url.pathname.replace(/\/+$/, '')}` === apiBase.baseUrl
  );
}

function parseSchoolUrl(schoolUrl: string): URL {
  const verdict = checkSchoolUrl(schoolUrl);
  if (verdict.ok) return verdict.url;
  throw new SchoolMcpError(
    'OPENAPI_BAD_SCHOOL_URL',
    `The school URL ${JSON.stringify(schoolUrl.slice(0, 200))} is not one the bridge talks to: ${SCHOOL_URL_RULE}.`,
    { hint: 'Pass the school as https://host.' },
  );
}

function checkNestedServers(
  servers: unknown,
  where: string,
  schoolBase: string,
  origin: string,
  chosen: string,
  warnings: Set<string>,
): void {
  for (const server of arrayOr(servers)) {
    const candidate = sameOriginBase(server, schoolBase, origin, where, warnings);
    if (candidate !== undefined && candidate !== chosen) {
      warnings.add(`Ignored the server ${candidate} declared for ${where}: every operation uses ${chosen}.`);
    }
  }
}

/** The server's base URL when it lies on the school's origin; otherwise a warning and undefined. */
function sameOriginBase(
  server: unknown,
  schoolBase: string,
  origin: string,
  where: string,
  warnings: Set<string>,
): string | undefined {
  if (!isRecord(server) || typeof server['url'] !== 'string') return undefined;
  const raw = server['url'];
  const expanded = expandVariables(raw, server['variables']);
  const shown = JSON.stringify(raw.slice(0, 200));
  if (expanded === undefined) {
    warnings.add(`Ignored the server ${shown} declared for ${where}: a server variable has no default.`);
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(expanded, `${schoolBase}/`);
  } catch {
    warnings.add(`Ignored the server ${shown} declared for ${where}: it is not a URL.`);
    return undefined;
  }
  if (url.origin !== origin || url.username !== '' || url.password !== '') {
    warnings.add(
      `Ignored the server ${shown} declared for ${where}: it is not on the school's origin ${origin}, and the sign-in token only goes there.`,
    );
    return undefined;
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** `{name}` placeholders replaced by their declared defaults; undefined when one has none. */
function expandVariables(url: string, variables: unknown): string | undefined {
  let missing = false;
  const expanded = url.replace(/\{([^{}]*)\}/g, (_match, name: string) => {
    const variable = recordOr(variables)[name];
    const fallback = isRecord(variable) ? variable['default'] : undefined;
    if (typeof fallback !== 'string') {
      missing = true;
      return '';
    }
    return fallback;
  });
  return missing ? undefined : expanded;
}
