/**
 * Where the token store lives, per platform. Pure: the environment and home directory come in
 * as parameters (only `src/config` reads `process.env`).
 */
import { posix, win32 } from 'node:path';

const APP_DIR_NAME = 'school-mcp';

export interface ConfigDirInput {
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  homedir: string;
}

/**
 * `SCHOOL_MCP_CONFIG_DIR` overrides everything; otherwise XDG Base Directory on Linux and the
 * BSDs, `~/Library/Application Support` on macOS, `%APPDATA%` on Windows.
 */
export function defaultConfigDir({ platform, env, homedir }: ConfigDirInput): string {
  const override = env.SCHOOL_MCP_CONFIG_DIR;
  if (override && override.trim().length > 0) return override;
  if (platform === 'win32') {
    const appData =
      env.APPDATA && win32.isAbsolute(env.APPDATA) ? env.APPDATA : win32.join(homedir, 'AppData', 'Roaming');
    return win32.join(appData, APP_DIR_NAME);
  }
  if (platform === 'darwin') return posix.join(homedir, 'Library', 'Application Support', APP_DIR_NAME);
  // XDG: a relative XDG_CONFIG_HOME is invalid and must be ignored.
  const xdg =
    env.XDG_CONFIG_HOME && posix.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : posix.join(homedir, '.config');
  return posix.join(xdg, APP_DIR_NAME);
}
