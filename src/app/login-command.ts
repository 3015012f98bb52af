/**
 * The terminal command that signs in for this server, for a host whose server cannot outlive one
 * call: the same school, store and client, so that the server finds the grant. Pure.
 */
import type { Config } from '../config/index.js';

/** `undefined` for a demo school: it lives only inside the server that started it. */
export function loginCommandFor(
  config: Pick<Config, 'demo' | 'configDir' | 'clientId'>,
  schoolUrl: URL,
): string | undefined {
  if (config.demo) return undefined;
  const school = schoolUrl.pathname === '/' ? schoolUrl.origin : schoolUrl.href;
  const parts = ['school-mcp', 'login', '--school', school];
  if (config.configDir !== undefined) parts.push('--config-dir', config.configDir);
  if (config.clientId !== undefined) parts.push('--client-id', config.clientId);
  return parts.map(shellWord).join(' ');
}

/** Quoted for a POSIX shell when it holds anything but plain characters. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
