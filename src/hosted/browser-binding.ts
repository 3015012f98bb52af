/**
 * What ties a sign-in to the browser that started it (the confused-deputy rule of the MCP
 * security best practices): a random value in an HttpOnly cookie, and consent forms that carry a
 * token derived from the interaction and a server key. Pure.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export function newBrowserBinding(): string {
  return randomBytes(32).toString('base64url');
}

/** The CSRF token of the consent form of interaction `uid` (RFC 6749 §10.12). */
export function consentFormToken(key: string, uid: string): string {
  return createHmac('sha256', key).update(`school-mcp consent\0${uid}`).digest('base64url');
}

export function equalDigests(a: string, b: string): boolean {
  const [left, right] = [Buffer.from(a), Buffer.from(b)];
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Pure: the value of cookie `name` in a `Cookie` header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}
