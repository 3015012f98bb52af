/**
 * What the school itself says about the access token (RFC 7662), for `status`: the scopes and
 * expiry it really has, which can differ from what the token response said (TK-04) or from the
 * record after an administrator revoked the grant. Only used when the school advertises an
 * introspection endpoint; otherwise `status` shows the local record.
 */
import type * as client from 'openid-client';
import { loadOpenIdClient } from './openid-client-module.js';
import type { Logger } from '../log.js';
import { toOAuthError } from './protocol-error.js';
import { quotableScopes } from '../school-text/index.js';
import { normalizeScopes } from './scopes.js';

export type IntrospectedToken =
  | { active: true; scopes: string[] | undefined; expiresAt: number | undefined }
  | { active: false };

/** Pure: RFC 7662 §2.2; anything but `active: true` means inactive, `exp` is in seconds. */
export function parseIntrospection(raw: Readonly<Record<string, unknown>>): IntrospectedToken {
  if (raw.active !== true) return { active: false };
  const exp = raw.exp;
  return {
    active: true,
    scopes: typeof raw.scope === 'string' ? normalizeScopes(quotableScopes(raw.scope.split(' '))) : undefined,
    expiresAt: typeof exp === 'number' && Number.isFinite(exp) && exp > 0 ? exp * 1000 : undefined,
  };
}

/** `undefined` when the school offers no introspection endpoint. */
async function introspectAccessToken(
  config: client.Configuration,
  accessToken: string,
): Promise<IntrospectedToken | undefined> {
  if (!config.serverMetadata().introspection_endpoint) return undefined;
  const response = await (
    await loadOpenIdClient()
  ).tokenIntrospection(config, accessToken, { token_type_hint: 'access_token' });
  return parseIntrospection(response as unknown as Record<string, unknown>);
}

/** The school's view, or `undefined` (no endpoint, or it failed: the local record is shown then). */
export async function schoolViewOf(
  config: client.Configuration,
  accessToken: string,
  logger: Logger,
): Promise<IntrospectedToken | undefined> {
  try {
    return await introspectAccessToken(config, accessToken);
  } catch (error) {
    logger.warn('the school could not confirm the token; showing what is stored', {
      error: toOAuthError(error, 'introspection').message,
    });
    return undefined;
  }
}
