/**
 * A file given in a tool call (`{ filename, content_base64, content_type? }`), checked and decoded.
 * Pure. Every refusal is an input error that names the argument, so the agent can fix the call.
 */
import { inputError } from './executor-error.js';
import { guessMediaType } from './media-type-guess.js';

export interface DecodedFile {
  readonly filename: string;
  readonly contentType: string;
  readonly bytes: Uint8Array;
}

const MEDIA_TYPE =
  /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+(?:\s*;\s*[A-Za-z0-9!#$&^_.+-]+=(?:[A-Za-z0-9!#$&^_.+-]+|"[^"\\]*"))*$/;
const CONTROL = /[\u0000-\u001f\u007f]/;
const DATA_URL_PREFIX = /^data:[^,]*;base64,/i;
const MAX_FILENAME_LENGTH = 255;

export function isFileArgumentShape(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'content_base64' in value;
}

export function decodeFileArgument(value: unknown, argument: string, maxBytes: number): DecodedFile {
  if (!isFileArgumentShape(value)) {
    throw inputError(`"${argument}" must be a file: { filename, content_base64, content_type? }.`);
  }
  const { filename, content_base64: contentBase64, content_type: contentType } = value;
  if (typeof filename !== 'string' || filename === '' || filename.length > MAX_FILENAME_LENGTH) {
    throw inputError(`"${argument}.filename" must be a file name of 1 to ${MAX_FILENAME_LENGTH} characters.`);
  }
  if (CONTROL.test(filename) || /[\\/]/.test(filename) || filename === '.' || filename === '..') {
    throw inputError(`"${argument}.filename" must be a plain file name, without folders or control characters.`);
  }
  if (contentType !== undefined && (typeof contentType !== 'string' || !MEDIA_TYPE.test(contentType))) {
    throw inputError(`"${argument}.content_type" must be a media type such as "image/png".`);
  }
  if (typeof contentBase64 !== 'string') throw inputError(`"${argument}.content_base64" must be a base64 string.`);
  return {
    filename,
    contentType: contentType ?? guessMediaType(filename, contentBase64),
    bytes: decodeBase64(contentBase64, `${argument}.content_base64`, maxBytes),
  };
}

/**
 * Standard or URL-safe alphabet, padding optional, whitespace and a `data:…;base64,` prefix
 * tolerated (agents produce all of these). The size is checked before decoding.
 */
export function decodeBase64(text: string, argument: string, maxBytes: number): Uint8Array {
  const compact = text.replace(DATA_URL_PREFIX, '').replace(/\s+/g, '');
  const standard = compact.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (!/^[A-Za-z0-9+/]*$/.test(standard) || standard.length % 4 === 1) {
    throw inputError(`"${argument}" is not valid base64.`);
  }
  const byteLength = Math.floor((standard.length * 3) / 4);
  if (byteLength > maxBytes) {
    throw inputError(`"${argument}" decodes to ${byteLength} bytes; the upload limit is ${maxBytes} bytes.`);
  }
  return new Uint8Array(Buffer.from(standard, 'base64'));
}
