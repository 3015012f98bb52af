/**
 * `--hosted`: the public URL, the grant store and its keys, the listener, draining, the audit log
 * and the bounds on client registration, each from its flag or environment variable. Pure.
 */
import type { HostedConfig } from './config.js';
import { configError, isTrue, nonEmpty, parseDrainSeconds, parsePort, parseWholeNumber } from './config-values.js';
import type { ParsedValues } from './parsed-values.js';

export function parseHosted(
  values: ParsedValues,
  demo: boolean,
  fromEnv: (flag: string) => string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): HostedConfig {
  if (values.http) throw configError('--hosted and --http exclude each other: --hosted serves its own HTTP endpoint');
  const url = values['public-url'] ?? nonEmpty(env.SCHOOL_MCP_PUBLIC_URL);
  if (!demo && url === undefined)
    throw configError('--hosted needs --public-url URL (or SCHOOL_MCP_PUBLIC_URL): where MCP clients reach it');
  if (!demo && (values['client-id'] ?? fromEnv('client-id')) === undefined)
    throw configError('--hosted needs --client-id: the integration registered for it at the school');
  return {
    publicUrl: demo ? undefined : url,
    storeDir: values.store ?? nonEmpty(env.SCHOOL_MCP_STORE),
    storeKeyFile: values['store-key-file'],
    storeKey: nonEmpty(env.SCHOOL_MCP_STORE_KEY),
    redisPassword: nonEmpty(env.SCHOOL_MCP_REDIS_PASSWORD),
    host: values.host ?? '127.0.0.1',
    port: values.port === undefined ? 0 : parsePort(values.port, '--port', 0),
    allowedHosts: values['allowed-host'] ?? [],
    allowedOrigins: values['allowed-origin'] ?? [],
    drainSeconds: parseDrainSeconds(values['drain-seconds'] ?? fromEnv('drain-seconds')),
    auditLog: parseAuditLog(values['audit-log'] ?? fromEnv('audit-log')),
    trustProxy: values['trust-proxy'] === true || isTrue(fromEnv('trust-proxy')),
    registration: parseRegistration(values, fromEnv),
  };
}

function parseRegistration(
  values: ParsedValues,
  fromEnv: (flag: string) => string | undefined,
): HostedConfig['registration'] {
  const limit = values['registration-limit'] ?? fromEnv('registration-limit');
  const cap = values['registration-cap'] ?? fromEnv('registration-cap');
  const expiry = values['registration-expiry'] ?? fromEnv('registration-expiry');
  return {
    ...(limit === undefined
      ? {}
      : { perAddressPerHour: parseWholeNumber(limit, '--registration-limit', 1, 1_000_000) }),
    ...(cap === undefined ? {} : { cap: parseWholeNumber(cap, '--registration-cap', 1, 10_000_000) }),
    // A client registers just before its user signs in: a minute at least; at most the 30 days of a refresh token.
    ...(expiry === undefined
      ? {}
      : { unusedSeconds: parseWholeNumber(expiry, '--registration-expiry', 60, 30 * 24 * 3600) }),
  };
}

function parseAuditLog(target: string | undefined): string | undefined {
  if (target === '') throw configError('--audit-log needs a file path, or - for stderr');
  return target;
}
