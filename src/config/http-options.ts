/**
 * `--http`: where the local Streamable HTTP endpoint binds and the secret that guards it; a
 * non-loopback address only on purpose (`--allow-remote`) and only with a secret the user chose. Pure.
 */
import { isLoopbackName } from '../network/index.js';
import type { HttpConfig } from './config.js';
import { configError, parsePort } from './config-values.js';

export function parseHttp(
  values: {
    host?: string;
    port?: string;
    'http-secret'?: string;
    'http-secret-file'?: string;
    'allow-remote'?: boolean;
    'allowed-origin'?: string[];
    'allowed-host'?: string[];
  },
  envSecret: string | undefined,
): HttpConfig {
  const host = values.host ?? '127.0.0.1';
  const allowRemote = values['allow-remote'] === true;
  const secretFile = values['http-secret-file'];
  if (values['http-secret'] !== undefined && secretFile !== undefined)
    throw configError('--http-secret and --http-secret-file exclude each other');
  const secret = values['http-secret'] ?? (secretFile === undefined ? envSecret : undefined);
  const loopback = isLoopbackName(host);
  if (!loopback && !allowRemote)
    throw configError(`--host ${host} is not a loopback address; add --allow-remote to bind it on purpose`);
  if (!loopback && !secret && !secretFile) {
    throw configError(
      'binding a non-loopback address needs a secret you chose (--http-secret-file or SCHOOL_MCP_HTTP_SECRET)',
    );
  }
  if (secret !== undefined) checkHttpSecretLength(secret);
  return {
    host,
    port: values.port === undefined ? 0 : parsePort(values.port, '--port', 0),
    secret,
    secretFile,
    allowRemote,
    allowedOrigins: values['allowed-origin'] ?? [],
    allowedHosts: values['allowed-host'] ?? [],
  };
}

export function checkHttpSecretLength(secret: string): void {
  if (secret.length < 16) throw configError('the HTTP secret must be at least 16 characters');
}
