/**
 * Resource indicators (RFC 8707): the sandbox protects one resource, its business API, whose
 * identifier is its base URL. Any other value is `invalid_target`.
 */

export type ResourceCheck = { ok: true; resource: string | undefined } | { ok: false; reason: string };

/** Pure: an absent indicator leaves the token unbound; a present one must name this resource. */
export function checkResourceIndicator(value: string | undefined, knownResource: string): ResourceCheck {
  if (value === undefined) return { ok: true, resource: undefined };
  if (value === knownResource) return { ok: true, resource: value };
  return { ok: false, reason: `unknown resource ${value.slice(0, 120)}; this server protects ${knownResource}` };
}
