/**
 * Command line and environment → one validated, frozen `Config`. This part is the only one that
 * reads `process.env`-shaped input (`loadConfig` is handed `env`; `main.ts` passes `process.env`),
 * so every other part receives explicit parameters. Each mode's options have their own parser
 * (`http-options.ts`, `hosted-options.ts`, `sandbox-options.ts`), single values theirs
 * (`config-values.ts`).
 */
import { parseCommandLine, SCHOOL_MCP_COMMAND_LINE, STORE_COMMANDS } from '../command-line/index.js';
import { argvSecretWarnings } from './argv-secret-warnings.js';
import type { Command, Config } from './config.js';
import {
  configError,
  DEFAULT_CONSENT_WAIT_MS,
  isTrue,
  nonEmpty,
  parseLogLevel,
  parsePort,
  parseSchoolUrl,
  parseToolsets,
  parseWaits,
  splitList,
} from './config-values.js';
import { parseHosted } from './hosted-options.js';
import { parseHttp } from './http-options.js';
import type { ParsedValues } from './parsed-values.js';
import { parseSandboxOptions } from './sandbox-options.js';

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

function freeze(config: Config): Config {
  return Object.freeze(config);
}
