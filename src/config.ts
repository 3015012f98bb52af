/**
 * Command line and environment → one validated, frozen `Config`. This is the only module that
 * reads `process.env`-shaped input (it is handed `env`; `main.ts` passes `process.env`), so every
 * other part receives explicit parameters.
 */
import { parseArgs } from 'node:util';
import { SchoolMcpError } from './errors.js';
import { checkSchoolUrl, isLoopbackName } from './network/index.js';
import type { LogLevel } from './log.js';

export type Command = 'serve' | 'sandbox' | 'login' | 'logout' | 'status' | 'help' | 'version';

export type ToolsetSelection = { mode: 'toolsets'; toolsets: readonly string[] | 'all' } | { mode: 'dynamic' };

export interface HttpConfig {
  readonly host: string;
  readonly port: number;
  /** Given by the user; `undefined` means one is made at launch and printed once. */
  readonly secret: string | undefined;
  /** `--http-secret-file`: `secret` is read from here before serving (`resolveSecretFiles`). */
  readonly secretFile?: string | undefined;
  readonly allowRemote: boolean;
  readonly allowedOrigins: readonly string[];
  /** Names clients may put in `Host` besides the loopback ones (`--allowed-host`). */
  readonly allowedHosts: readonly string[];
}

export interface Config {
  readonly command: Command;
  /** The school's base URL; `undefined` with `--demo` (the sandbox's URL is known only once it listens). */
  readonly schoolUrl: URL | undefined;
  readonly demo: boolean;
  readonly openapiSource: string | undefined;
  readonly toolsets: ToolsetSelection | undefined;
  readonly readOnly: boolean;
  readonly tools: readonly string[] | undefined;
  readonly excludeTools: readonly string[];
  /**
   * `--scopes "a b"`: these up front; `--scopes least`: only what each call needs; absent: the
   * reads of the enabled toolsets first, each write at its first need.
   */
  readonly scopes: readonly string[] | 'least' | undefined;
  readonly clientId: string | undefined;
  readonly clientSecret: string | undefined;
  /** `--client-secret-file`: `clientSecret` is read from here before use (`resolveSecretFiles`). */
  readonly clientSecretFile: string | undefined;
  readonly clientMetadataUrl: string | undefined;
  readonly callbackPort: number | undefined;
  readonly openBrowser: boolean;
  /** `login --paste`: read the redirected address from the terminal (headless machines; never in serve). */
  readonly pasteRedirect: boolean;
  /** How long a tool call waits for the user to finish consent before answering "pending". */
  readonly consentWaitMs: number;
  /**
   * How long a call waits when the link can only go into its result (no URL elicitation, no
   * browser): 0 answers at once with the link, which is what the user needs to see to approve.
   */
  readonly linkWaitMs: number;
  readonly configDir: string | undefined;
  readonly logLevel: LogLevel;
  readonly http: HttpConfig | undefined;
  /** Arguments after `sandbox`, passed through to the sandbox command. */
  readonly sandboxArgs: readonly string[];
  /** The few environment variables other parts may consult (config dir, display, SSH, TLS). */
  readonly environment: Readonly<Record<string, string | undefined>>;
  /** What the user should hear about the configuration (a secret given in argv), for stderr. */
  readonly warnings: readonly string[];
}

/**
 * How long a tool call waits for the user by default. Under the 60 s after which the MCP
 * TypeScript SDK 1.x client, embedded by many hosts, times a request out at its default options
 * (it resets only when asked to and sent progress), with room for sign-in and the call itself.
 */
export const DEFAULT_CONSENT_WAIT_MS = 45_000;

/** Everything else in the environment stays unread. */
const ENVIRONMENT_KEYS = [
  'SCHOOL_MCP_CONFIG_DIR',
  'XDG_CONFIG_HOME',
  'APPDATA',
  'DISPLAY',
  'WAYLAND_DISPLAY',
  'SSH_CONNECTION',
  'SSH_CLIENT',
  'SSH_TTY',
  'CI',
  'NODE_TLS_REJECT_UNAUTHORIZED',
] as const;

const ENV_PREFIX = 'SCHOOL_MCP_';

const USAGE = `usage:
  school-mcp --school URL [options]      serve the school's tools over MCP (stdio)
  school-mcp --demo [options]            the same against a sandbox school started in-process
  school-mcp --http [--host H] [--port N] --school URL|--demo
                                         serve over Streamable HTTP on 127.0.0.1
  school-mcp login [--scopes "a b"]      sign in now (browser consent)
  school-mcp login --paste               sign in from a headless machine: open the printed link
                                         anywhere, then paste the address the browser lands on
  school-mcp logout                      revoke and forget the tokens
  school-mcp status                      who is signed in, with which scopes
  school-mcp sandbox [--port N] [--auto-approve] [--data FILE]
                                         run the sandbox school on its own

options:
  --school URL              the school's base URL (env SCHOOL_MCP_SCHOOL); https, or http on loopback
  --openapi FILE|URL        read the API description from here instead of {school}/openapi.json
  --toolsets a,b|all|dynamic  scope groups to serve as tools (env SCHOOL_MCP_TOOLSETS)
  --read-only               only read operations; only scopes a read operation accepts are requested
  --tools a,b               exactly these tools; --exclude-tools a,b  all but these
  --scopes "a b"|least      ask for these scopes up front; or "least": only what each call needs
                            (default: the reads of the listed toolsets first, each write when needed)
  --client-id ID            a pre-registered client (env SCHOOL_MCP_CLIENT_ID)
  --client-secret-file F    its secret, sent as client_secret_post, read from file F
                            (or env SCHOOL_MCP_CLIENT_SECRET; --client-secret S works but is
                            visible to every user of the machine in the process list)
  --client-metadata-url URL a Client ID Metadata Document, when the school supports them
  --callback-port N         a fixed loopback port for the sign-in redirect
  --no-browser              never open a browser; show the sign-in link instead
  --consent-wait SECONDS    the longest a call waits for consent before answering "pending" (default 45,
                            under the 60 s after which many hosts give up on a call)
  --link-wait SECONDS       how much of that wait to use when the link can only be shown in the tool
                            result (default 0: answer at once with the link; more if you approve
                            from the server's log, or if your host starts a server per call)
  --config-dir DIR          where tokens and caches live (env SCHOOL_MCP_CONFIG_DIR)
  --log-level L             debug | info | warn | error (env SCHOOL_MCP_LOG_LEVEL)
  --http-secret-file F      the bearer secret HTTP clients must send, read from file F
                            (or env SCHOOL_MCP_HTTP_SECRET; --http-secret S works but is
                            visible to every user of the machine in the process list)
  --allow-remote            allow --host other than loopback (needs --http-secret)
  --allowed-origin O        an Origin allowed to call the HTTP endpoint (repeatable)
  --allowed-host H[:PORT]   a Host name the HTTP endpoint answers to besides 127.0.0.1,
                            localhost and [::1] (repeatable; needed with --host 0.0.0.0)
`;

export function usage(): string {
  return USAGE;
}

/** Pure: parses argv (without node and script) and an environment into a frozen Config. */
export function loadConfig(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Config {
  const [first, ...rest] = argv;
  const environment = Object.fromEntries(ENVIRONMENT_KEYS.map((key) => [key, env[key]]));
  if (first === 'sandbox') return freeze(defaults('sandbox', { sandboxArgs: rest, environment }));
  const subcommand = first === 'login' || first === 'logout' || first === 'status' ? first : undefined;
  const args = subcommand ? rest : [...argv];

  let parsed;
  try {
    parsed = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        school: { type: 'string' },
        demo: { type: 'boolean' },
        openapi: { type: 'string' },
        toolsets: { type: 'string' },
        'read-only': { type: 'boolean' },
        tools: { type: 'string' },
        'exclude-tools': { type: 'string' },
        scopes: { type: 'string' },
        'client-id': { type: 'string' },
        'client-secret': { type: 'string' },
        'client-secret-file': { type: 'string' },
        'client-metadata-url': { type: 'string' },
        'callback-port': { type: 'string' },
        'no-browser': { type: 'boolean' },
        paste: { type: 'boolean' },
        'consent-wait': { type: 'string' },
        'link-wait': { type: 'string' },
        'config-dir': { type: 'string' },
        'log-level': { type: 'string' },
        http: { type: 'boolean' },
        host: { type: 'string' },
        port: { type: 'string' },
        'http-secret': { type: 'string' },
        'http-secret-file': { type: 'string' },
        'allow-remote': { type: 'boolean' },
        'allowed-origin': { type: 'string', multiple: true },
        'allowed-host': { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (error) {
    throw configError(error instanceof Error ? error.message : String(error));
  }
  const values = parsed.values;
  if (values.help) return freeze(defaults('help', { environment }));
  if (values.version) return freeze(defaults('version', { environment }));

  const fromEnv = (name: string) => nonEmpty(env[ENV_PREFIX + name]);
  const demo = values.demo === true;
  const schoolText = values.school ?? fromEnv('SCHOOL');
  if (demo && values.school) throw configError('--demo and --school exclude each other');
  if (!demo && !schoolText) throw configError('name the school with --school URL (or SCHOOL_MCP_SCHOOL), or use --demo');
  const schoolUrl = demo ? undefined : parseSchoolUrl(schoolText!);

  const toolsetsText = values.toolsets ?? fromEnv('TOOLSETS');
  const logLevel = (values['log-level'] ?? fromEnv('LOG_LEVEL') ?? 'info') as LogLevel;
  if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) throw configError(`unknown --log-level ${logLevel}`);

  // STDIO-02: stdin is the protocol when serving; only the login command may read a pasted address.
  if (values.paste && subcommand !== 'login') throw configError('--paste goes with the login command only');

  const http = values.http ? parseHttp(values, fromEnv('HTTP_SECRET')) : undefined;
  if (!values.http && (values.host || values.port || values['allow-remote'] || values['allowed-host'] || values['allowed-origin'] || values['http-secret-file'])) {
    throw configError('--host, --port, --allow-remote, --allowed-host, --allowed-origin and --http-secret-file go with --http');
  }
  if (values['client-secret'] !== undefined && values['client-secret-file'] !== undefined) {
    throw configError('--client-secret and --client-secret-file exclude each other');
  }
  const clientSecretFile = values['client-secret-file'];

  return freeze({
    ...defaults(subcommand ?? 'serve', { environment }),
    schoolUrl,
    demo,
    openapiSource: values.openapi,
    toolsets: toolsetsText === undefined ? undefined : parseToolsets(toolsetsText),
    readOnly: values['read-only'] === true || isTrue(fromEnv('READ_ONLY')),
    tools: values.tools === undefined ? undefined : splitList(values.tools),
    excludeTools: values['exclude-tools'] === undefined ? [] : splitList(values['exclude-tools']),
    scopes: values.scopes === undefined ? undefined : values.scopes.trim() === 'least' ? 'least' : splitList(values.scopes),
    clientId: values['client-id'] ?? fromEnv('CLIENT_ID'),
    clientSecret: values['client-secret'] ?? (clientSecretFile === undefined ? fromEnv('CLIENT_SECRET') : undefined),
    clientSecretFile,
    clientMetadataUrl: values['client-metadata-url'],
    callbackPort: values['callback-port'] === undefined ? undefined : parsePort(values['callback-port'], '--callback-port', 1),
    openBrowser: !(values['no-browser'] === true || isTrue(fromEnv('NO_BROWSER'))),
    pasteRedirect: values.paste === true,
    ...parseWaits(values['consent-wait'], values['link-wait']),
    configDir: values['config-dir'] ?? fromEnv('CONFIG_DIR'),
    logLevel,
    http,
    warnings: argvSecretWarnings(values),
  });
}

/**
 * ST-08: a secret in argv is readable by every local user (`ps`, `/proc/<pid>/cmdline`) for as
 * long as the process runs; it still works, with a warning naming the safer ways.
 */
export function argvSecretWarnings(values: { 'http-secret'?: string; 'client-secret'?: string }): string[] {
  const warnings: string[] = [];
  for (const [flag, variable] of [['http-secret', 'SCHOOL_MCP_HTTP_SECRET'], ['client-secret', 'SCHOOL_MCP_CLIENT_SECRET']] as const) {
    if (values[flag] === undefined) continue;
    warnings.push(`--${flag} puts the secret in the command line, where every user of this machine can read it (ps, /proc/<pid>/cmdline); use --${flag}-file FILE or ${variable} instead`);
  }
  return warnings;
}

function defaults(command: Command, overrides: Partial<Config> = {}): Config {
  return {
    command,
    schoolUrl: undefined,
    demo: false,
    openapiSource: undefined,
    toolsets: undefined,
    readOnly: false,
    tools: undefined,
    excludeTools: [],
    scopes: undefined,
    clientId: undefined,
    clientSecret: undefined,
    clientSecretFile: undefined,
    clientMetadataUrl: undefined,
    callbackPort: undefined,
    openBrowser: true,
    pasteRedirect: false,
    consentWaitMs: DEFAULT_CONSENT_WAIT_MS,
    linkWaitMs: 0,
    configDir: undefined,
    logLevel: 'info',
    http: undefined,
    sandboxArgs: [],
    environment: {},
    warnings: [],
    ...overrides,
  };
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
      throw configError(`--school must be an https URL (plain http is allowed only on 127.0.0.1 or [::1]): ${verdict.url?.href ?? text}`);
  }
}

function parseToolsets(text: string): ToolsetSelection {
  const list = splitList(text);
  if (list.length === 1 && list[0] === 'dynamic') return { mode: 'dynamic' };
  if (list.length === 1 && list[0] === 'all') return { mode: 'toolsets', toolsets: 'all' };
  if (list.includes('dynamic') || list.includes('all')) throw configError('--toolsets takes "all", "dynamic", or a list of toolsets');
  if (list.length === 0) throw configError('--toolsets is empty');
  return { mode: 'toolsets', toolsets: list };
}

function parseHttp(
  values: { host?: string; port?: string; 'http-secret'?: string; 'http-secret-file'?: string; 'allow-remote'?: boolean; 'allowed-origin'?: string[]; 'allowed-host'?: string[] },
  envSecret: string | undefined,
): HttpConfig {
  const host = values.host ?? '127.0.0.1';
  const allowRemote = values['allow-remote'] === true;
  const secretFile = values['http-secret-file'];
  if (values['http-secret'] !== undefined && secretFile !== undefined) throw configError('--http-secret and --http-secret-file exclude each other');
  const secret = values['http-secret'] ?? (secretFile === undefined ? envSecret : undefined);
  const loopback = isLoopbackName(host);
  if (!loopback && !allowRemote) throw configError(`--host ${host} is not a loopback address; add --allow-remote to bind it on purpose`);
  if (!loopback && !secret && !secretFile) {
    throw configError('binding a non-loopback address needs a secret you chose (--http-secret-file or SCHOOL_MCP_HTTP_SECRET)');
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

function parsePort(text: string, flag: string, minimum: number): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port < minimum || port > 65535) throw configError(`${flag} must be a port number, got ${JSON.stringify(text)}`);
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
function parseWaits(consentWait: string | undefined, linkWait: string | undefined): { consentWaitMs: number; linkWaitMs: number } {
  const consentWaitMs = consentWait === undefined ? DEFAULT_CONSENT_WAIT_MS : Math.round(parseSeconds(consentWait, '--consent-wait', 0.1) * 1000);
  const linkWaitMs = linkWait === undefined ? 0 : Math.round(parseSeconds(linkWait, '--link-wait', 0) * 1000);
  if (linkWaitMs > consentWaitMs) {
    throw configError(
      `--link-wait (${linkWaitMs / 1000} s) cannot be longer than --consent-wait (${consentWaitMs / 1000} s), which bounds every call; ` +
        'raise --consent-wait too, if your host waits that long for a call (hosts built on the MCP TypeScript SDK 1.x give up after 60 s)',
    );
  }
  return { consentWaitMs, linkWaitMs };
}

function splitList(text: string): string[] {
  return text.split(/[\s,]+/).filter((item) => item.length > 0);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function isTrue(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value);
}

export function configError(message: string): SchoolMcpError<'CONFIG_INVALID'> {
  return new SchoolMcpError('CONFIG_INVALID', message, { hint: 'run `school-mcp --help` for the options' });
}

function freeze(config: Config): Config {
  return Object.freeze(config);
}
