/**
 * Secrets read from files (`--http-secret-file`, `--client-secret-file`), so that they stay out of
 * argv, where every local user can read them (ST-08). The file holds the secret alone; one
 * trailing line break, as editors and `echo` leave it, is not part of it.
 * @see SECURITY.md ST-08
 */
import { open } from 'node:fs/promises';
import { checkHttpSecretLength, configError, type Config } from './config/index.js';

/** Far above any secret; a larger file is the wrong file. */
const MAX_SECRET_FILE_BYTES = 4096;

/** Pure: the secret a file's text holds, or a configuration error saying what is wrong with it. */
export function secretFromFileText(text: string, flag: string): string {
  const secret = text.replace(/\r?\n$/, '');
  if (secret.trim() === '') throw configError(`the file given to ${flag} is empty`);
  if (/[\r\n]/.test(secret))
    throw configError(`the file given to ${flag} holds more than one line; it must hold the secret alone`);
  if (secret !== secret.trim()) throw configError(`the secret in the file given to ${flag} starts or ends with spaces`);
  return secret;
}

/** A warning when the file is open to other users, who could then read the secret. */
export function looseSecretFileWarning(mode: number, flag: string, path: string): string | undefined {
  if (process.platform === 'win32' || (mode & 0o077) === 0) return undefined;
  return `the file given to ${flag} (${path}) can be read by other users (mode ${(mode & 0o777).toString(8)}); chmod 600 it`;
}

async function readSecretFile(path: string, flag: string, warnings: string[]): Promise<string> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw configError(`cannot read the file given to ${flag}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > MAX_SECRET_FILE_BYTES)
      throw configError(`the file given to ${flag} is not a small regular file`);
    const warning = looseSecretFileWarning(info.mode, flag, path);
    if (warning !== undefined) warnings.push(warning);
    return secretFromFileText(await handle.readFile('utf8'), flag);
  } finally {
    await handle.close();
  }
}

/** The configuration with the secrets of its secret files filled in. */
export async function resolveSecretFiles(config: Config): Promise<Config> {
  const warnings = [...config.warnings];
  let { http, clientSecret } = config;
  if (http?.secretFile !== undefined) {
    const secret = await readSecretFile(http.secretFile, '--http-secret-file', warnings);
    checkHttpSecretLength(secret);
    http = { ...http, secret };
  }
  if (config.clientSecretFile !== undefined)
    clientSecret = await readSecretFile(config.clientSecretFile, '--client-secret-file', warnings);
  return Object.freeze({ ...config, http, clientSecret, warnings });
}
