/**
 * How long a client or a cache in between may keep the hosted server's public documents: the
 * authorization server metadata (RFC 8414), its JWKS and the protected resource metadata
 * (RFC 9728). They are the same for everyone and change only with a new deployment, so a success
 * may be kept five minutes (and a 304 confirms it); an error is never kept, so it cannot outlive its cause. Pure.
 * @see SECURITY.md HOST-42
 */

const METADATA_MAX_AGE_SECONDS = 300;

export function metadataCacheControl(status: number): string {
  return status === 200 || status === 304 ? `public, max-age=${METADATA_MAX_AGE_SECONDS}` : 'no-store';
}
