/**
 * Pure: what the HTTP endpoint may bind and who it admits, decided before any socket opens. The
 * config refuses the same things; this is the transport's own check, so no other caller of
 * `serveOverHttp` can bind a reachable address without a chosen secret.
 * @see SECURITY.md HTTP-01, HTTP-04, HTTP-09
 */
import type { HttpConfig } from '../config/index.js';
import { SchoolMcpError } from '../errors.js';
import { isUsableSecret } from './bearer-secret.js';
import { isLoopbackName } from '../network/index.js';
import { isWildcardAddress, normalizeAllowedOrigin, splitHostEntry } from './http-guards.js';

export interface BindPolicy {
  readonly host: string;
  readonly port: number;
  readonly remote: boolean;
  /** The secret the user chose, or `undefined` when one is to be made at launch. */
  readonly chosenSecret: string | undefined;
  readonly allowedOrigins: ReadonlySet<string>;
  readonly extraHosts: readonly string[];
}

export function bindPolicy(config: HttpConfig): BindPolicy {
  const remote = !isLoopbackName(config.host);
  if (remote && !config.allowRemote) {
    throw new SchoolMcpError('HTTP_BIND_REFUSED', `--host ${config.host} is reachable from other machines`, {
      hint: 'add --allow-remote to bind it on purpose, or leave --host out to stay on 127.0.0.1',
    });
  }
  if (remote && config.secret === undefined) {
    throw new SchoolMcpError('HTTP_BIND_REFUSED', 'a reachable address needs a secret you chose', {
      hint: 'set --http-secret or SCHOOL_MCP_HTTP_SECRET (32 random characters or more)',
    });
  }
  if (config.secret !== undefined && !isUsableSecret(config.secret)) {
    throw new SchoolMcpError(
      'HTTP_BIND_REFUSED',
      'the HTTP secret must be at least 16 visible ASCII characters, without spaces',
      { hint: 'choose another --http-secret' },
    );
  }
  if (isWildcardAddress(config.host) && config.allowedHosts.length === 0) {
    throw new SchoolMcpError(
      'HTTP_BIND_REFUSED',
      `--host ${config.host} listens on every interface, so the Host names to answer to must be listed`,
      { hint: 'add --allowed-host with the name clients use, e.g. --allowed-host mcp.internal.example' },
    );
  }
  for (const entry of config.allowedHosts) splitHostEntry(entry);
  return {
    host: config.host,
    port: config.port,
    remote,
    chosenSecret: config.secret,
    allowedOrigins: new Set(config.allowedOrigins.map(normalizeAllowedOrigin)),
    extraHosts: config.allowedHosts,
  };
}
