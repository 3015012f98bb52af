/**
 * How deep a document may nest. Every walk of the document (the YAML composer, the reference
 * check, the schema conversion) recurses once per level, so a few kilobytes of `[[[[...` would
 * otherwise end start-up with a bare stack overflow, or cost seconds and a gigabyte in the YAML
 * parser before it does. The depth is checked before anything recursive sees the document.
 * @see SECURITY.md API-12
 */
import { SchoolMcpError } from '../errors.js';

/**
 * Objects and arrays inside one another, the document itself being level 1. Real documents stay
 * far below (the GitHub REST description: 19); the YAML composer overflows its stack near 400.
 */
export const MAX_DOCUMENT_DEPTH = 128;

export function tooDeepError(source?: string): SchoolMcpError<'OPENAPI_TOO_DEEP'> {
  return new SchoolMcpError(
    'OPENAPI_TOO_DEEP',
    `The OpenAPI document${source === undefined ? '' : ` from ${source}`} nests objects or arrays more than ${MAX_DOCUMENT_DEPTH} levels deep.`,
    {
      hint: "An API description never needs that depth: check that the file is the school's real document, or move nested schemas to components and refer to them with $ref.",
    },
  );
}

/**
 * Pure: whether JSON text opens more than `limit` objects or arrays inside one another. Brackets
 * inside strings do not count. Linear, and stops at the first level too deep.
 */
export function jsonNestingExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index += 1; // backslash: the next character is escaped
      else if (code === 0x22) inString = false;
      continue;
    }
    if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      depth += 1;
      if (depth > limit) return true;
    } else if (code === 0x7d || code === 0x5d) depth -= 1;
  }
  return false;
}
