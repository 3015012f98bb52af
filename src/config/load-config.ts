/**
 * Command line and environment → one validated, frozen `Config`. This is the only module that
 * reads `process.env`-shaped input (it is handed `env`; `main.ts` passes `process.env`), so every
 * other part receives explicit parameters.
 */
import { parseCommandLine, SCHOOL_MCP_COMMAND_LINE, STORE_COMMANDS, type CommandName } from '../command-line/index.js';
import { checkSchoolUrl, isLoopbackName } from '../network/index.js';
import type { LogLevel } from '../log.js';
import {
  configError,
  DEFAULT_CONSENT_WAIT_MS,
  isTrue,
  nonEmpty,
  parseDrainSeconds,
  parseExtraStaff,
  parseIntegrationCallback,
  parsePort,
  parseWaits,
  parseWholeNumber,
  splitList,
} from './config-values.js';

type Command = CommandName | 'help' | 'version';

/** `school-mcp sandbox`: where and how the sandbox school runs. */
interface SandboxCommandOptions {
  readonly port?: number;
  readonly autoApprove?: boolean;
  readonly dataFile?: string;
  /** `--integration`: the fixed callbacks of one registered integration to create at start. */
  readonly integrationCallbacks?: readonly string[];
  /** `--extra-staff`: generated staff members who may sign in besides the named ones. */
  readonly extraStaff?: number;
}

type ToolsetSelection = { mode: 'toolsets'; toolsets: readonly string[] | 'all' } | { mode: 'dynamic' };

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

/** `--hosted`: one server for many staff members (the hosted part checks the public URL). */
export interface HostedConfig {
  /** Absent with `--demo`, where the address bound is the public URL. */
  readonly publicUrl: string | undefined;
  readonly storeDir: string | undefined;
  readonly storeKeyFile: string | undefined;
  /** `SCHOOL_MCP_STORE_KEY`; never read from the command line, where every local user could see it. */
  readonly storeKey: string | undefined;
  /** `SCHOOL_MCP_REDIS_PASSWORD`, for a `redis://` store; never on the command line, like the store key. */
  readonly redisPassword: string | undefined;
  readonly host: string;
  readonly port: number;
  /** `--allowed-host`: names a proxy that rewrites `Host` sends, besides the public URL's host. */
  readonly allowedHosts: readonly string[];
  /** `--allowed-origin`: browser origins allowed to call `/mcp` besides the public URL's. */
  readonly allowedOrigins: readonly string[];
  /** `--drain-seconds`: on SIGTERM, how long requests in flight may take to finish; 0 ends them at once. */
  readonly drainSeconds: number;
  /** `--audit-log`: a file to append the audit log to, `-` for stderr; none when absent. */
  readonly auditLog: string | undefined;
  /** `--trust-proxy`: the client's address is the last `X-Forwarded-For` entry rather than the socket's peer. */
  readonly trustProxy: boolean;
  /** `--registration-limit`, `--registration-cap`, `--registration-expiry`; absent ones take the hosted defaults. */
  readonly registration: {
    readonly perAddressPerHour?: number;
    readonly cap?: number;
    readonly unusedSeconds?: number;
  };
}

/** `school-mcp store …`: the grant store `--hosted` would open, and its keys. */
interface StoreCommandConfig {
  /** `--store` or `SCHOOL_MCP_STORE`; absent: `hosted-store` in the config directory, as for `--hosted`. */
  readonly storeDir: string | undefined;
  readonly storeKeyFile: string | undefined;
  /** `SCHOOL_MCP_STORE_KEY`, as for `--hosted`. */
  readonly storeKey: string | undefined;
  readonly redisPassword: string | undefined;
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
  readonly hosted: HostedConfig | undefined;
  /** With `help`: the command whose help was asked for. */
  readonly helpFor: CommandName;
  /** `tools --json`: the listing as one JSON object. */
  readonly json: boolean;
  /** The `store …` commands' store and keys. */
  readonly store: StoreCommandConfig | undefined;
  /** The `sandbox` command's options. */
  readonly sandbox: SandboxCommandOptions;
  /** The few environment variables other parts may consult (config dir, display, SSH, TLS). */
  readonly environment: Readonly<Record<string, string | undefined>>;
  /** What the user should hear about the configuration (a secret given in argv), for stderr. */
  readonly warnings: readonly string[];
}

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

/**
 * Pure: parses argv (without node and script) and an environment into a frozen Config. The
 * flags, which commands take them and their environment variables come from the command table.
 */
export function loadConfig(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Config {
  const environment = Object.fromEntries(ENVIRONMENT_KEYS.map((key) => [key, env[key]]));
  const parsed = parseCommandLine(SCHOOL_MCP_COMMAND_LINE, argv);
  switch (parsed.kind) {
    case 'usage-error':
      throw configError(parsed.message, parsed.command);
    case 'help':
      return freeze(defaults('help', { helpFor: parsed.command, environment }));
    case 'version':
      return freeze(defaults('version', { environment }));
    case 'run':
      break;
  }
  const { command } = parsed;
  const values = parsed.values as ParsedValues;
  if (command === 'sandbox') return freeze(defaults('sandbox', { sandbox: parseSandboxOptions(values), environment }));

  const fromEnv = (flag: string) => {
    const variable = SCHOOL_MCP_COMMAND_LINE.options.find(
      (option) => option.flag === flag && option.commands.includes(command),
    )?.env;
    return variable === undefined ? undefined : nonEmpty(env[variable]);
  };
  if ((STORE_COMMANDS as readonly string[]).includes(command)) {
    return freeze(
      defaults(command, {
        store: {
          storeDir: values.store ?? nonEmpty(env.SCHOOL_MCP_STORE),
          storeKeyFile: values['store-key-file'],
          storeKey: nonEmpty(env.SCHOOL_MCP_STORE_KEY),
          redisPassword: nonEmpty(env.SCHOOL_MCP_REDIS_PASSWORD),
        },
        configDir: values['config-dir'] ?? fromEnv('config-dir'),
        logLevel: parseLogLevel(values['log-level'] ?? fromEnv('log-level')),
        json: values.json === true,
        environment,
      }),
    );
  }
  const demo = values.demo === true;
  const schoolText = values.school ?? fromEnv('school');
  if (demo && values.school) throw configError('--demo and --school exclude each other');
  // The tools command reads a document and signs nobody in: a file is enough.
  const schoolOptional = command === 'tools' && values.openapi !== undefined;
  if (!demo && !schoolText && !schoolOptional) {
    throw configError(
      command === 'tools'
        ? 'name the school with --school URL (or SCHOOL_MCP_SCHOOL), give its document with --openapi FILE, or use --demo'
        : 'name the school with --school URL (or SCHOOL_MCP_SCHOOL), or use --demo',
    );
  }
  if (!demo && !schoolText && /^https?:/i.test(values.openapi ?? '')) {
    throw configError(
      "an --openapi URL needs --school: the document is read only from the school's origin; or download it and give the file",
      command,
    );
  }
  const schoolUrl = demo || !schoolText ? undefined : parseSchoolUrl(schoolText);

  const toolsetsText = values.toolsets ?? fromEnv('toolsets');
  const logLevel = parseLogLevel(values['log-level'] ?? fromEnv('log-level'));

  const hosted = values.hosted ? parseHosted(values, demo, fromEnv, env) : undefined;
  const hostedOnly = [
    'public-url',
    'store',
    'store-key-file',
    'drain-seconds',
    'trust-proxy',
    'registration-limit',
    'registration-cap',
    'registration-expiry',
    'audit-log',
  ] as const;
  if (!values.hosted && hostedOnly.some((flag) => values[flag] !== undefined && values[flag] !== false)) {
    throw configError(`${hostedOnly.map((flag) => `--${flag}`).join(', ')} go with --hosted`);
  }
  const http = values.http ? parseHttp(values, fromEnv('http-secret')) : undefined;
  if (
    !values.http &&
    !values.hosted &&
    (values.host ||
      values.port ||
      values['allow-remote'] ||
      values['allowed-host'] ||
      values['allowed-origin'] ||
      values['http-secret-file'])
  ) {
    throw configError(
      '--host, --port, --allow-remote, --allowed-host, --allowed-origin and --http-secret-file go with --http',
    );
  }
  if (values['client-secret'] !== undefined && values['client-secret-file'] !== undefined) {
    throw configError('--client-secret and --client-secret-file exclude each other');
  }
  const clientSecretFile = values['client-secret-file'];

  return freeze({
    ...defaults(command, { environment }),
    schoolUrl,
    demo,
    openapiSource: values.openapi,
    toolsets: toolsetsText === undefined ? undefined : parseToolsets(toolsetsText),
    readOnly: values['read-only'] === true || isTrue(fromEnv('read-only')),
    tools: values.tools === undefined ? undefined : splitList(values.tools),
    excludeTools: values['exclude-tools'] === undefined ? [] : splitList(values['exclude-tools']),
    scopes:
      values.scopes === undefined ? undefined : values.scopes.trim() === 'least' ? 'least' : splitList(values.scopes),
    clientId: values['client-id'] ?? fromEnv('client-id'),
    clientSecret: values['client-secret'] ?? (clientSecretFile === undefined ? fromEnv('client-secret') : undefined),
    clientSecretFile,
    clientMetadataUrl: values['client-metadata-url'],
    callbackPort:
      values['callback-port'] === undefined ? undefined : parsePort(values['callback-port'], '--callback-port', 1),
    openBrowser: !(values['no-browser'] === true || isTrue(fromEnv('no-browser'))),
    pasteRedirect: values.paste === true,
    ...parseWaits(values['consent-wait'], values['link-wait']),
    configDir: values['config-dir'] ?? fromEnv('config-dir'),
    logLevel,
    http,
    hosted,
    json: values.json === true,
    warnings: argvSecretWarnings(values),
  });
}

function parseLogLevel(text: string | undefined): LogLevel {
  const logLevel = (text ?? 'info') as LogLevel;
  if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) throw configError(`unknown --log-level ${logLevel}`);
  return logLevel;
}

/** What the command table's flags hold once parsed. */
interface ParsedValues {
  readonly school?: string;
  readonly demo?: boolean;
  readonly openapi?: string;
  readonly toolsets?: string;
  readonly 'read-only'?: boolean;
  readonly tools?: string;
  readonly 'exclude-tools'?: string;
  readonly scopes?: string;
  readonly 'client-id'?: string;
  readonly 'client-secret'?: string;
  readonly 'client-secret-file'?: string;
  readonly 'client-metadata-url'?: string;
  readonly 'callback-port'?: string;
  readonly 'no-browser'?: boolean;
  readonly paste?: boolean;
  readonly 'consent-wait'?: string;
  readonly 'link-wait'?: string;
  readonly 'config-dir'?: string;
  readonly 'log-level'?: string;
  readonly json?: boolean;
  readonly http?: boolean;
  readonly host?: string;
  readonly port?: string;
  readonly 'http-secret'?: string;
  readonly 'http-secret-file'?: string;
  readonly 'allow-remote'?: boolean;
  readonly 'allowed-origin'?: string[];
  readonly 'allowed-host'?: string[];
  readonly 'auto-approve'?: boolean;
  readonly data?: string;
  readonly integration?: string[];
  readonly 'extra-staff'?: string;
  readonly hosted?: boolean;
  readonly 'public-url'?: string;
  readonly store?: string;
  readonly 'store-key-file'?: string;
  readonly 'drain-seconds'?: string;
  readonly 'audit-log'?: string;
  readonly 'trust-proxy'?: boolean;
  readonly 'registration-limit'?: string;
  readonly 'registration-cap'?: string;
  readonly 'registration-expiry'?: string;
}

function parseSandboxOptions(values: ParsedValues): SandboxCommandOptions {
  if (values.data === '') throw configError('--data needs a file path', 'sandbox');
  return {
    ...(values.port === undefined ? {} : { port: parsePort(values.port, '--port', 0, 'sandbox') }),
    ...(values['auto-approve'] === true ? { autoApprove: true } : {}),
    ...(values.data === undefined ? {} : { dataFile: values.data }),
    ...(values.integration === undefined
      ? {}
      : { integrationCallbacks: values.integration.map((callback) => parseIntegrationCallback(callback)) }),
    ...(values['extra-staff'] === undefined ? {} : { extraStaff: parseExtraStaff(values['extra-staff']) }),
  };
}

function parseHosted(
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

/**
 * ST-08: a secret in argv is readable by every local user (`ps`, `/proc/<pid>/cmdline`) for as
 * long as the process runs; it still works, with a warning naming the safer ways.
 */
function argvSecretWarnings(values: { 'http-secret'?: string; 'client-secret'?: string }): string[] {
  const warnings: string[] = [];
  for (const [flag, variable] of [
    ['http-secret', 'SCHOOL_MCP_HTTP_SECRET'],
    ['client-secret', 'SCHOOL_MCP_CLIENT_SECRET'],
  ] as const) {
    if (values[flag] === undefined) continue;
    warnings.push(
      `--${flag} puts the secret in the command line, where every user of this machine can read it (ps, /proc/<pid>/cmdline); use --${flag}-file FILE or ${variable} instead`,
    );
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
    hosted: undefined,
    helpFor: 'serve',
    json: false,
    store: undefined,
    sandbox: {},
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
      throw configError(
        `--school must be an https URL (plain http is allowed only on 127.0.0.1 or [::1]): ${verdict.url?.href ?? text}`,
      );
  }
}

function parseToolsets(text: string): ToolsetSelection {
  const list = splitList(text);
  if (list.length === 1 && list[0] === 'dynamic') return { mode: 'dynamic' };
  if (list.length === 1 && list[0] === 'all') return { mode: 'toolsets', toolsets: 'all' };
  if (list.includes('dynamic') || list.includes('all'))
    throw configError('--toolsets takes "all", "dynamic", or a list of toolsets');
  if (list.length === 0) throw configError('--toolsets is empty');
  return { mode: 'toolsets', toolsets: list };
}

function parseHttp(
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

function freeze(config: Config): Config {
  return Object.freeze(config);
}
