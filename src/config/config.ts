/**
 * The shape of the one frozen `Config` every other part receives, and of its sections per mode
 * (`--http`, `--hosted`, `store …`, `sandbox`). Types only: `load-config.ts` fills it in.
 */
import type { CommandName } from '../command-line/index.js';
import type { LogLevel } from '../log.js';

export type Command = CommandName | 'help' | 'version';

/** `school-mcp sandbox`: where and how the sandbox school runs. */
export interface SandboxCommandOptions {
  readonly port?: number;
  readonly autoApprove?: boolean;
  readonly dataFile?: string;
  /** `--integration`: the fixed callbacks of one registered integration to create at start. */
  readonly integrationCallbacks?: readonly string[];
  /** `--extra-staff`: generated staff members who may sign in besides the named ones. */
  readonly extraStaff?: number;
}

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
