/**
 * What one tool call to the school came to. Typed so that callers branch on kinds and codes:
 * the server renders any outcome as a tool result, and re-consent acts on `insufficient_scope`.
 */
import type { SchoolMcpError } from '../errors.js';
import type { HttpResponse } from './http-client.js';
import { isJsonMediaType, mediaTypeOf } from '../network/index.js';
import type { BearerChallenge } from './www-authenticate.js';

/** Which operation the outcome belongs to, for messages; values of arguments are left out. */
export interface CallSummary {
  readonly toolName: string;
  readonly method: string;
  readonly pathTemplate: string;
}

export type ResponseContent =
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'binary' }
  | { readonly kind: 'empty' };

/** Everything the API answered: successes and API errors alike. */
export interface ResponseOutcome {
  readonly kind: 'response';
  readonly call: CallSummary;
  readonly status: number;
  /** The media type without parameters, lower-cased; `undefined` when the API sent none. */
  readonly contentType: string | undefined;
  readonly content: ResponseContent;
  /** Bytes of the decoded body that were read. */
  readonly byteLength: number;
  /** The body was cut at the size cap (text and error bodies only; JSON past the cap is an error). */
  readonly truncated: boolean;
  /** From `Retry-After`, when the API sent one. */
  readonly retryAfterSeconds?: number;
  readonly challenge?: BearerChallenge;
}

/**
 * RFC 6750 §3.1 `insufficient_scope` (ERR-03): the token is valid but lacks a scope. The
 * challenge's `scope` is authoritative; without one, the operation's declared scopes are used.
 */
export interface InsufficientScopeOutcome {
  readonly kind: 'insufficient_scope';
  readonly call: CallSummary;
  readonly requiredScopes: readonly string[];
  readonly scopeSource: 'challenge' | 'operation';
  readonly challenge: BearerChallenge;
  readonly response: ResponseOutcome;
}

/** A local failure: input refused, timeout, network, redirect, oversized, sign-in failure. */
export interface ErrorOutcome {
  readonly kind: 'error';
  readonly call: CallSummary;
  readonly error: SchoolMcpError;
}

export type ExecutionOutcome = ResponseOutcome | InsufficientScopeOutcome | ErrorOutcome;

const TEXTUAL_MEDIA_TYPE = /^(?:text\/|application\/(?:xml|javascript|x-www-form-urlencoded|[^/]*\+xml)$)/;

/** Pure: the decoded body as JSON, text, or opaque bytes. */
export function interpretContent(bytes: Buffer, contentType: string | undefined): ResponseContent {
  if (bytes.byteLength === 0) return { kind: 'empty' };
  const type = mediaTypeOf(contentType);
  if (isJsonMediaType(type) || type === '') {
    const text = bytes.toString('utf8');
    try {
      return { kind: 'json', value: JSON.parse(text) as unknown };
    } catch {
      if (type === '' && !looksLikeText(bytes)) return { kind: 'binary' };
      return { kind: 'text', text };
    }
  }
  if (TEXTUAL_MEDIA_TYPE.test(type)) return { kind: 'text', text: bytes.toString('utf8') };
  return { kind: 'binary' };
}

function looksLikeText(bytes: Buffer): boolean {
  return !bytes.subarray(0, 512).includes(0);
}

export function toResponseOutcome(
  call: CallSummary,
  response: HttpResponse,
  extras: { retryAfterMs?: number | undefined; challenge?: BearerChallenge | undefined },
): ResponseOutcome {
  const type = mediaTypeOf(response.contentType);
  return {
    kind: 'response',
    call,
    status: response.status,
    contentType: type === '' ? undefined : type,
    content: interpretContent(response.bytes, response.contentType),
    byteLength: response.bytes.byteLength,
    truncated: response.truncated,
    ...(extras.retryAfterMs === undefined ? {} : { retryAfterSeconds: Math.ceil(extras.retryAfterMs / 1000) }),
    ...(extras.challenge === undefined ? {} : { challenge: extras.challenge }),
  };
}
