/**
 * The server while the school is out of reach (`school-outage.ts`), for any transport: a factory
 * whose servers list the account tools and `school_status`, try the school again before a
 * `tools/list` or `tools/call` is handled, and once it opens register its tools on every server
 * still connected (the SDK tells each host with `notifications/tools/list_changed`). Servers made
 * after that start with the school's tools, as a normal start's do.
 */
import { McpServer, type Transport } from '@modelcontextprotocol/server';
import type { AccountService } from './account.js';
import { registerAccountTools } from './account-tools.js';
import {
  compiledSchoolFactory,
  compileSchool,
  schoolServerSettings,
  type CompiledSchool,
  type SchoolServerFactory,
  type SchoolServerOptions,
} from './create-server.js';
import { lazyJsonSchema } from './lazy-json-schema.js';
import type { LogRelay } from './log-relay.js';
import { outageResult, recoveredResult, SCHOOL_STATUS_TOOL, type SchoolOutage } from './school-outage.js';

export interface RecoveringServerOptions {
  readonly outage: SchoolOutage;
  /** Sign-in status and sign-out, which need no API description. */
  readonly account: AccountService;
  readonly schoolName: string;
  readonly version: string;
  readonly logs?: LogRelay;
  /** Epoch milliseconds; `Date.now` unless a test sets it. */
  readonly now?: () => number;
  /** How long a list or call waits for an attempt; `ATTEMPT_WAIT_MS` unless a test sets it. */
  readonly attemptWaitMs?: number;
}

const noInput = lazyJsonSchema({ type: 'object', properties: {}, additionalProperties: false });

/** How long a list or call waits for an attempt at the school before it is answered without it. */
const ATTEMPT_WAIT_MS = 5_000;

/** The requests that try the school again before they are handled. */
const RETRYING_METHODS = new Set(['tools/list', 'tools/call']);

export function createRecoveringServerFactory(options: RecoveringServerOptions): SchoolServerFactory {
  const { outage, schoolName } = options;
  const now = options.now ?? Date.now;
  let school: CompiledSchool | undefined;
  const waiting = new Set<McpServer>();
  const instructions =
    `Tools for the online school ${schoolName}, which school-mcp cannot load right now. ` +
    `Call ${SCHOOL_STATUS_TOOL} to learn what failed and what to do; the school's own tools are listed once it answers.`;

  const install = (opened: SchoolServerOptions) => {
    if (school !== undefined) return;
    school = compileSchool({ ...opened, ...(options.logs === undefined ? {} : { logs: options.logs }) });
    for (const server of waiting) {
      // The account tools are there already; the school's own are added beside them.
      if (server.isConnected()) school.register(server, false);
    }
    waiting.clear();
  };

  /**
   * Tries the school (one attempt shared by the requests that arrive while it runs), waiting for
   * it at most `ATTEMPT_WAIT_MS`: a school that does not answer at all must not hold a list past
   * a host's request timeout. An attempt still running then goes on, and its tools are listed
   * (and the hosts told) when it opens.
   */
  const reach = async (): Promise<void> => {
    if (school !== undefined) return;
    const attempt = outage.retry().then(
      (opened) => {
        if (opened !== undefined) install(opened);
      },
      () => undefined,
    );
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, options.attemptWaitMs ?? ATTEMPT_WAIT_MS);
      timer.unref();
    });
    await Promise.race([attempt, waited]);
    clearTimeout(timer);
  };

  return () => {
    if (school !== undefined) return compiledSchoolFactory(school, options)();
    const server = new RetryingServer(reach, `School: ${schoolName}`, options.version, instructions);
    options.logs?.attach(server);
    registerAccountTools(server, options.account);
    server.registerTool(
      SCHOOL_STATUS_TOOL,
      {
        title: 'School status',
        description: `Says whether school-mcp can reach the school ${schoolName} and load its API description, what failed if not, and what to do. Tries the school again.`,
        inputSchema: noInput,
        annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
      },
      () =>
        school === undefined
          ? outageResult(schoolName, outage.problem(), outage.nextAttemptAt(), now())
          : recoveredResult(schoolName),
    );
    waiting.add(server);
    // A closed connection's server is let go: over HTTP every request may have one.
    const closed = server.server.onclose;
    server.server.onclose = () => {
      closed?.();
      waiting.delete(server);
    };
    return server;
  };
}

/**
 * A server that tries the school before each list or call: the request is handed on once the
 * attempt settles, so a call that finds the school back is answered by the school's tool.
 */
class RetryingServer extends McpServer {
  constructor(
    private readonly reach: () => Promise<void>,
    title: string,
    version: string,
    instructions: string,
  ) {
    super({ name: 'school-mcp', title, version }, schoolServerSettings(instructions));
  }

  override async connect(transport: Transport): Promise<void> {
    await super.connect(transport);
    const handle = transport.onmessage;
    if (handle === undefined) return;
    transport.onmessage = (message, extra) => {
      if (!('method' in message) || !('id' in message) || !RETRYING_METHODS.has(message.method))
        return handle(message, extra);
      void this.reach().finally(() => handle(message, extra));
    };
  }
}
