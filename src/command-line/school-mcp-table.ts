/**
 * Every command and option of `school-mcp`: the parser, the usage text and the environment
 * variables all come from here.
 */
import type { CommandLineTable, OptionSpec } from './option-table.js';

export type CommandName = 'serve' | 'login' | 'logout' | 'status' | 'tools' | 'sandbox' | StoreCommandName;
/** The grant store's maintenance, for hosted mode's operators. */
export type StoreCommandName = 'store-keys' | 'store-reseal' | 'store-reset-secrets';
export const STORE_COMMANDS: readonly StoreCommandName[] = ['store-keys', 'store-reseal', 'store-reset-secrets'];

const SIGN_IN: readonly CommandName[] = ['serve', 'login', 'logout', 'status'];
const SCHOOL: readonly CommandName[] = [...SIGN_IN, 'tools'];
const CATALOGUE: readonly CommandName[] = ['serve', 'tools'];
const ALL: readonly CommandName[] = [...SCHOOL, 'sandbox', ...STORE_COMMANDS];
const HOSTED_STORE: readonly CommandName[] = ['serve', ...STORE_COMMANDS];

const OPTIONS: readonly OptionSpec<CommandName>[] = [
  {
    flag: 'school',
    type: 'string',
    value: 'URL',
    env: 'SCHOOL_MCP_SCHOOL',
    commands: SCHOOL,
    help: "the school's base URL; https, or http on loopback",
  },
  { flag: 'demo', type: 'boolean', commands: SCHOOL, help: 'a sandbox school started in-process instead of --school' },
  {
    flag: 'openapi',
    type: 'string',
    value: 'FILE|URL',
    commands: CATALOGUE,
    help: "read the API description from here instead of {school}/openapi.json (a URL must be on the school's origin)",
  },
  {
    flag: 'toolsets',
    type: 'string',
    value: 'a,b|all|dynamic',
    env: 'SCHOOL_MCP_TOOLSETS',
    commands: CATALOGUE,
    help: 'scope groups to serve as tools',
  },
  {
    flag: 'read-only',
    type: 'boolean',
    env: 'SCHOOL_MCP_READ_ONLY',
    commands: ['serve', 'login', 'tools'],
    help: 'only read operations; only scopes a read operation accepts are requested',
  },
  { flag: 'tools', type: 'string', value: 'a,b', commands: CATALOGUE, help: 'exactly these tools' },
  { flag: 'exclude-tools', type: 'string', value: 'a,b', commands: CATALOGUE, help: 'all tools but these' },
  {
    flag: 'scopes',
    type: 'string',
    value: '"a b"|least',
    commands: ['serve', 'login'],
    help: 'ask for these scopes up front; or "least": only what each call needs (default: the reads of the listed toolsets first, each write when needed)',
  },
  {
    flag: 'client-id',
    type: 'string',
    value: 'ID',
    env: 'SCHOOL_MCP_CLIENT_ID',
    commands: SIGN_IN,
    help: 'a pre-registered client',
  },
  {
    flag: 'client-secret-file',
    type: 'string',
    value: 'F',
    commands: SIGN_IN,
    help: "the client's secret, sent as client_secret_post, read from file F (or SCHOOL_MCP_CLIENT_SECRET)",
  },
  {
    flag: 'client-secret',
    type: 'string',
    value: 'S',
    env: 'SCHOOL_MCP_CLIENT_SECRET',
    commands: SIGN_IN,
    help: 'the same on the command line, where every user of the machine can read it in the process list',
  },
  {
    flag: 'client-metadata-url',
    type: 'string',
    value: 'URL',
    commands: SIGN_IN,
    help: 'a Client ID Metadata Document, when the school supports them',
  },
  {
    flag: 'callback-port',
    type: 'string',
    value: 'N',
    commands: SIGN_IN,
    help: 'a fixed loopback port for the sign-in redirect',
  },
  {
    flag: 'no-browser',
    type: 'boolean',
    env: 'SCHOOL_MCP_NO_BROWSER',
    commands: SIGN_IN,
    help: 'never open a browser; show the sign-in link instead',
  },
  // STDIO-02: stdin is the protocol when serving; only the login command may read a pasted address.
  {
    flag: 'paste',
    type: 'boolean',
    commands: ['login'],
    help: 'sign in from a headless machine: open the printed link anywhere, then paste the address the browser lands on',
  },
  {
    flag: 'consent-wait',
    type: 'string',
    value: 'SECONDS',
    commands: ['serve'],
    help: 'the longest a call waits for consent before answering "pending" (default 45, under the 60 s after which many hosts give up on a call)',
  },
  {
    flag: 'link-wait',
    type: 'string',
    value: 'SECONDS',
    commands: ['serve'],
    help: "how much of that wait to use when the link can only be shown in the tool result (default 0: answer at once with the link; more if you approve from the server's log, or if your host starts a server per call)",
  },
  {
    flag: 'config-dir',
    type: 'string',
    value: 'DIR',
    env: 'SCHOOL_MCP_CONFIG_DIR',
    commands: [...SCHOOL, ...STORE_COMMANDS],
    help: 'where tokens and caches live',
  },
  {
    flag: 'log-level',
    type: 'string',
    value: 'L',
    env: 'SCHOOL_MCP_LOG_LEVEL',
    commands: [...SCHOOL, ...STORE_COMMANDS],
    help: 'debug | info | warn | error, on stderr',
  },
  {
    flag: 'json',
    type: 'boolean',
    commands: ['tools', 'store-keys', 'store-reseal'],
    help: 'print the listing or the report as one JSON object instead of text',
  },
  { flag: 'http', type: 'boolean', commands: ['serve'], help: 'serve over Streamable HTTP at /mcp instead of stdio' },
  {
    flag: 'host',
    type: 'string',
    value: 'H',
    commands: ['serve'],
    help: 'where --http or --hosted listens (default 127.0.0.1)',
  },
  {
    flag: 'port',
    type: 'string',
    value: 'N',
    commands: ['serve'],
    help: 'the port --http or --hosted listens on (default 0: any free port, printed on stderr)',
  },
  {
    flag: 'hosted',
    type: 'boolean',
    commands: ['serve'],
    help: 'serve a team: each person signs in through their MCP client',
  },
  {
    flag: 'public-url',
    type: 'string',
    value: 'URL',
    commands: ['serve'],
    help: 'where clients reach --hosted; https (or SCHOOL_MCP_PUBLIC_URL)',
  },
  {
    flag: 'store',
    type: 'string',
    value: 'DIR|URL',
    commands: HOSTED_STORE,
    help: "--hosted's grant store: a directory, or redis://HOST:PORT/DB or rediss://… (or SCHOOL_MCP_STORE); the Redis password only in SCHOOL_MCP_REDIS_PASSWORD, never in the URL, where every local user could read it in the process list",
  },
  {
    flag: 'store-key-file',
    type: 'string',
    value: 'FILE',
    commands: HOSTED_STORE,
    help: "--hosted's store key file (or SCHOOL_MCP_STORE_KEY)",
  },
  {
    flag: 'drain-seconds',
    type: 'string',
    value: 'SECONDS',
    env: 'SCHOOL_MCP_DRAIN_SECONDS',
    commands: ['serve'],
    help: 'on SIGTERM or SIGINT, how long --hosted lets requests in flight finish before it exits (default 10; 0: at once)',
  },
  {
    flag: 'audit-log',
    type: 'string',
    value: 'FILE|-',
    env: 'SCHOOL_MCP_AUDIT_LOG',
    commands: ['serve'],
    help: "--hosted's audit log: one JSON line per registration, sign-in, consent, step-up, tool call, sign-out and refusal, appended to FILE (created 0600, reopened on SIGHUP) or written to stderr with -; see docs/audit-log.md",
  },
  {
    flag: 'http-secret-file',
    type: 'string',
    value: 'F',
    commands: ['serve'],
    help: 'the bearer secret HTTP clients must send, read from file F (or SCHOOL_MCP_HTTP_SECRET)',
  },
  {
    flag: 'http-secret',
    type: 'string',
    value: 'S',
    env: 'SCHOOL_MCP_HTTP_SECRET',
    commands: ['serve'],
    help: 'the same on the command line, where every user of the machine can read it in the process list',
  },
  {
    flag: 'allow-remote',
    type: 'boolean',
    commands: ['serve'],
    help: 'allow --host other than loopback (needs a secret you chose)',
  },
  {
    flag: 'allowed-origin',
    type: 'string',
    multiple: true,
    value: 'O',
    commands: ['serve'],
    help: "an Origin allowed to call the HTTP endpoint, or --hosted's /mcp besides the public URL's (repeatable)",
  },
  {
    flag: 'allowed-host',
    type: 'string',
    multiple: true,
    value: 'H[:PORT]',
    commands: ['serve'],
    help: "a Host name the HTTP endpoint answers to besides 127.0.0.1, localhost and [::1] (repeatable; needed with --host 0.0.0.0); with --hosted, one a proxy that rewrites Host sends besides the public URL's",
  },
  {
    flag: 'trust-proxy',
    type: 'boolean',
    env: 'SCHOOL_MCP_TRUST_PROXY',
    commands: ['serve'],
    help: "--hosted sits behind a proxy that appends the client's address to X-Forwarded-For: take it from there (the last entry) for per-address limits; scheme and host always come from --public-url",
  },
  {
    flag: 'registration-limit',
    type: 'string',
    value: 'N',
    env: 'SCHOOL_MCP_REGISTRATION_LIMIT',
    commands: ['serve'],
    help: "--hosted's open registration: clients one address (an IPv6 /64) may register per hour (default 60); more get 429 with Retry-After",
  },
  {
    flag: 'registration-cap',
    type: 'string',
    value: 'N',
    env: 'SCHOOL_MCP_REGISTRATION_CAP',
    commands: ['serve'],
    help: 'clients all addresses together may register within --registration-expiry, so at most N unused ones are kept (default 10000)',
  },
  {
    flag: 'registration-expiry',
    type: 'string',
    value: 'SECONDS',
    env: 'SCHOOL_MCP_REGISTRATION_EXPIRY',
    commands: ['serve'],
    help: 'a registered client that never gets a token is forgotten after this (default 86400); one that does is kept as long as its tokens',
  },
  {
    flag: 'port',
    type: 'string',
    value: 'N',
    commands: ['sandbox'],
    help: 'listen on 127.0.0.1:N (default: a free port)',
  },
  {
    flag: 'auto-approve',
    type: 'boolean',
    commands: ['sandbox'],
    help: 'approve every authorization request without the consent page',
  },
  {
    flag: 'data',
    type: 'string',
    value: 'FILE',
    commands: ['sandbox'],
    help: "keep the school's data in FILE across restarts",
  },
  {
    flag: 'extra-staff',
    type: 'string',
    value: 'N',
    commands: ['sandbox'],
    help: 'N generated staff members (usr_staff_001…, lecturers) who may sign in after the three named ones, for load tests (0 to 999)',
  },
  {
    flag: 'integration',
    type: 'string',
    multiple: true,
    value: 'CALLBACK',
    commands: ['sandbox'],
    help: 'register one confidential integration with these fixed callbacks (https, or http on 127.0.0.1; repeatable) and print its client id and secret',
  },
  { flag: 'help', type: 'boolean', short: 'h', commands: ALL, help: 'this help' },
  { flag: 'version', type: 'boolean', short: 'v', commands: ALL, help: "school-mcp's version" },
];

export const SCHOOL_MCP_COMMAND_LINE: CommandLineTable<CommandName> = {
  program: 'school-mcp',
  defaultCommandLabel: 'serving',
  commands: [
    {
      name: 'serve',
      forms: [
        { form: '--school URL [options]', summary: "serve the school's tools over MCP (stdio)" },
        { form: '--demo [options]', summary: 'the same against a sandbox school started in-process' },
        {
          form: '--http [--host H] [--port N] --school URL|--demo',
          summary: 'serve over Streamable HTTP on 127.0.0.1',
        },
        { form: '--hosted --public-url URL --school URL --client-id ID', summary: 'serve a team over OAuth' },
        { form: '--hosted --demo', summary: 'the same against a sandbox school, with a walkthrough' },
      ],
    },
    {
      name: 'login',
      word: 'login',
      forms: [
        { form: 'login [--scopes "a b"]', summary: 'sign in now (browser consent)' },
        {
          form: 'login --paste',
          summary:
            'sign in from a headless machine: open the printed link anywhere, then paste the address the browser lands on',
        },
      ],
    },
    { name: 'logout', word: 'logout', forms: [{ form: 'logout', summary: 'revoke and forget the tokens' }] },
    { name: 'status', word: 'status', forms: [{ form: 'status', summary: 'who is signed in, with which scopes' }] },
    {
      name: 'tools',
      word: 'tools',
      forms: [
        {
          form: 'tools [--school URL | --openapi FILE] [--toolsets a,b] [--read-only] [--json]',
          summary:
            "the tools a host would be given, their size and every warning about the school's API document (no sign-in)",
        },
      ],
    },
    {
      name: 'sandbox',
      word: 'sandbox',
      forms: [
        {
          form: 'sandbox [--port N] [--auto-approve] [--data FILE] [--integration CALLBACK]',
          summary: 'run the sandbox school on its own',
        },
      ],
    },
    {
      name: 'store-keys',
      word: 'store keys',
      forms: [
        {
          form: 'store keys [--store DIR|URL] [--store-key-file FILE]',
          summary:
            "--hosted's grant store: how many records rest under each key, and how many no key given opens (changes nothing)",
        },
      ],
    },
    {
      name: 'store-reseal',
      word: 'store reseal',
      forms: [
        {
          form: 'store reseal [--store DIR|URL] [--store-key-file FILE]',
          summary:
            'seal every record under an old key again with the first key, safe while instances serve; then the same count (exit 1 while records remain under an old key)',
        },
      ],
    },
    {
      name: 'store-reset-secrets',
      word: 'store reset-secrets',
      forms: [
        {
          form: 'store reset-secrets [--store DIR|URL] [--store-key-file FILE]',
          summary:
            "remove the authorization server's secrets record when no key given opens it, so the next start makes new ones (stop every instance first)",
        },
      ],
    },
  ],
  options: OPTIONS,
};
