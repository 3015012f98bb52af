/**
 * The parsers of single option values, each refusing with a `CONFIG_INVALID` that names the flag
 * and the command whose help explains it. Pure.
 */
import type { CommandName } from '../command-line/index.js';
import { SchoolMcpError } from '../errors.js';
import type { LogLevel } from '../log.js';
import { checkSchoolUrl } from '../network/index.js';
import type { ToolsetSelection } from './config.js';

/**
 * How long a tool call waits for the user by default. Under the 60 s after which the MCP
 * TypeScript SDK 1.x client, embedded by many hosts, times a request out at its default options
 * (it resets only when asked to and sent progress), with room for sign-in and the call itself.
 */
export const DEFAULT_CONSENT_WAIT_MS = 45_000;

export function parsePort(text: string, flag: string, minimum: number, command?: CommandName): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port < minimum || port > 65535)
    throw configError(`${flag} must be a port number, got ${JSON.stringify(text)}`, command);
  return port;
}

function parseSeconds(text: string, flag: string, minimum: number): number {
  const seconds = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || seconds < minimum || seconds > 600) {
    throw configError(`${flag} must be a number of seconds between ${minimum} and 600, got ${JSON.stringify(text)}`);
  }
  return seconds;
}

/** `--link-wait` is a part of `--consent-wait`, which bounds every call. */
export function parseWaits(
  consentWait: string | undefined,
  linkWait: string | undefined,
): { consentWaitMs: number; linkWaitMs: number } {
  const consentWaitMs =
    consentWait === undefined
      ? DEFAULT_CONSENT_WAIT_MS
      : Math.round(parseSeconds(consentWait, '--consent-wait', 0.1) * 1000);
  const linkWaitMs = linkWait === undefined ? 0 : Math.round(parseSeconds(linkWait, '--link-wait', 0) * 1000);
  if (linkWaitMs > consentWaitMs) {
    throw configError(
      `--link-wait (${linkWaitMs / 1000} s) cannot be longer than --consent-wait (${consentWaitMs / 1000} s), which bounds every call; ` +
        'raise --consent-wait too, if your host waits that long for a call (hosts built on the MCP TypeScript SDK 1.x give up after 60 s)',
    );
  }
  return { consentWaitMs, linkWaitMs };
}

export function splitList(text: string): string[] {
  return text.split(/[\s,]+/).filter((item) => item.length > 0);
}

export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function isTrue(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value);
}

/** A usage error; its hint names the help of the command it concerns. */
export function configError(message: string, command?: CommandName): SchoolMcpError<'CONFIG_INVALID'> {
  const word = command === undefined || command === 'serve' ? '' : ` ${command}`;
  return new SchoolMcpError('CONFIG_INVALID', message, { hint: `run \`school-mcp${word} --help\` for the options` });
}

/** A balancer's health check interval plus a slow request: 10 s suits most; orchestrators allow 30 s before SIGKILL. */
const DEFAULT_DRAIN_SECONDS = 10;

export function parseDrainSeconds(text: string | undefined): number {
  return text === undefined ? DEFAULT_DRAIN_SECONDS : parseSeconds(text, '--drain-seconds', 0);
}

/** A whole number of something within bounds, e.g. `--registration-cap`. */
export function parseWholeNumber(text: string, flag: string, minimum: number, maximum: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < minimum || value > maximum)
    throw configError(`${flag} must be a whole number from ${minimum} to ${maximum}, got ${JSON.stringify(text)}`);
  return value;
}

/** The sandbox numbers generated members with three digits. */
export function parseExtraStaff(text: string): number {
  if (!/^\d{1,3}$/.test(text))
    throw configError(`--extra-staff takes a whole number from 0 to 999, got ${JSON.stringify(text)}`, 'sandbox');
  return Number(text);
}

/** The sandbox checks the rest when it registers the integration; here only what a URL is. */
export function parseIntegrationCallback(value: string): string {
  if (!URL.canParse(value))
    throw configError(`--integration needs a callback URL, got ${JSON.stringify(value)}`, 'sandbox');
  return value;
}

/** The network part's rule (https, or http on 127.0.0.1 or [::1]); kept without query or fragment. */
export function parseSchoolUrl(text: string): URL {
  const verdict = checkSchoolUrl(text);
  if (verdict.ok) return verdict.url;
  switch (verdict.problem) {
    case 'not-a-url':
      throw configError(`--school is not a URL: ${JSON.stringify(text)}`);
    case 'credentials':
      throw configError('--school must not carry a user name or password');
    case 'query-or-fragment':
      throw configError('--school must not carry a query or fragment');
    case 'scheme':
      throw configError(
        `--school must be an https URL (plain http is allowed only on 127.0.0.1 or [::1]): ${verdict.url?.href ?? text}`,
      );
  }
}

export function parseToolsets(text: string): ToolsetSelection {
  const list = splitList(text);
  if (list.length === 1 && list[0] === 'dynamic') return { mode: 'dynamic' };
  if (list.length === 1 && list[0] === 'all') return { mode: 'toolsets', toolsets: 'all' };
  if (list.includes('dynamic') || list.includes('all'))
    throw configError('--toolsets takes "all", "dynamic", or a list of toolsets');
  if (list.length === 0) throw configError('--toolsets is empty');
  return { mode: 'toolsets', toolsets: list };
}

export function parseLogLevel(text: string | undefined): LogLevel {
  const logLevel = (text ?? 'info') as LogLevel;
  if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) throw configError(`unknown --log-level ${logLevel}`);
  return logLevel;
}
