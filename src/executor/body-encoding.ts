/**
 * The request body for an operation's media type: JSON, `application/x-www-form-urlencoded`,
 * `multipart/form-data` (files from base64, for storage uploads), text, or raw bytes. Pure.
 */
import { isJsonMediaType, mediaTypeOf } from '../network/index.js';
import type { OperationBody } from '../openapi/index.js';
import { inputError } from './executor-error.js';
import { decodeFileArgument, isFileArgumentShape } from './file-argument.js';
import { encodeFormComponent } from './parameter-style.js';

export interface EncodedBody {
  readonly contentType: string;
  readonly content: string | Uint8Array;
}

export interface BodyEncodingOptions {
  readonly maxUploadBytes: number;
  /** The multipart boundary; random per request in production, fixed in tests. */
  readonly multipartBoundary: string;
}

/**
 * The body value from the tool arguments: the mapped properties of a `merged` body, or the one
 * argument of a `wrapped` body. `undefined` when there is nothing to send.
 */
export function collectBodyValue(body: OperationBody, args: Readonly<Record<string, unknown>>): unknown {
  if (body.mode === 'wrapped') {
    const value = body.argument === undefined ? undefined : args[body.argument];
    if (value === undefined && body.required) {
      throw inputError(`The request body "${body.argument ?? 'body'}" is required.`);
    }
    return value;
  }
  const properties: Record<string, unknown> = {};
  let present = false;
  for (const [argument, property] of Object.entries(body.propertyArguments ?? {})) {
    const value = args[argument];
    if (value === undefined) continue;
    properties[property] = value;
    present = true;
  }
  return present || body.required ? properties : undefined;
}

export function encodeBody(body: OperationBody, value: unknown, options: BodyEncodingOptions): EncodedBody {
  const type = mediaTypeOf(body.contentType);
  if (body.file === true) return encodeWholeFile(body, value, options);
  const files = new Set(body.fileProperties ?? []);
  if (type === 'multipart/form-data') return encodeMultipart(asObject(value), files, options);
  if (type === 'application/x-www-form-urlencoded') {
    return { contentType: body.contentType, content: encodeForm(asObject(value)) };
  }
  if (isJsonMediaType(type)) return { contentType: body.contentType, content: JSON.stringify(value) };
  if (type.startsWith('text/')) {
    return { contentType: body.contentType, content: typeof value === 'string' ? value : JSON.stringify(value) };
  }
  if (isFileArgumentShape(value)) {
    return { contentType: body.contentType, content: decodeFileArgument(value, 'body', options.maxUploadBytes).bytes };
  }
  return { contentType: body.contentType, content: typeof value === 'string' ? value : JSON.stringify(value) };
}

/** A raw upload: the file's bytes are the body; a wildcard media type (`image/*`) takes the file's own. */
function encodeWholeFile(body: OperationBody, value: unknown, options: BodyEncodingOptions): EncodedBody {
  const file = decodeFileArgument(value, body.argument ?? 'body', options.maxUploadBytes);
  return { contentType: body.contentType.includes('*') ? file.contentType : body.contentType, content: file.bytes };
}

function asObject(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw inputError('The request body must be an object for this media type.');
  }
  return value as Record<string, unknown>;
}

function fieldText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function encodeForm(value: Record<string, unknown>): string {
  const pairs: string[] = [];
  for (const [name, item] of Object.entries(value)) {
    const items = Array.isArray(item) ? item : [item];
    for (const element of items) {
      if (element === undefined || element === null) continue;
      pairs.push(`${encodeFormComponent(name)}=${encodeFormComponent(fieldText(element))}`);
    }
  }
  return pairs.join('&');
}

/**
 * RFC 7578, with names and file names escaped as the HTML standard's multipart encoder does
 * (`"` → `%22`, CR → `%0D`, LF → `%0A`).
 */
function encodeMultipart(
  value: Record<string, unknown>,
  files: ReadonlySet<string>,
  options: BodyEncodingOptions,
): EncodedBody {
  const boundary = options.multipartBoundary;
  const chunks: Buffer[] = [];
  let uploaded = 0;
  const part = (headers: string, content: string | Uint8Array) => {
    chunks.push(Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`), Buffer.from(content), Buffer.from('\r\n'));
  };
  for (const [name, item] of Object.entries(value)) {
    if (item === undefined || item === null) continue;
    const disposition = `Content-Disposition: form-data; name="${escapeQuoted(name)}"`;
    if (files.has(name)) {
      const fileValues = Array.isArray(item) ? item : [item];
      for (const [index, fileValue] of fileValues.entries()) {
        const argument = Array.isArray(item) ? `${name}[${index}]` : name;
        const file = decodeFileArgument(fileValue, argument, options.maxUploadBytes - uploaded);
        uploaded += file.bytes.byteLength;
        part(
          `${disposition}; filename="${escapeQuoted(file.filename)}"\r\nContent-Type: ${file.contentType}`,
          file.bytes,
        );
      }
    } else if (typeof item === 'object') {
      part(`${disposition}\r\nContent-Type: application/json`, JSON.stringify(item));
    } else {
      part(disposition, fieldText(item));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    content: new Uint8Array(Buffer.concat(chunks)),
  };
}

function escapeQuoted(text: string): string {
  return text.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
