#!/usr/bin/env node
/**
 * The command line entry: reads the config, then runs one command. Only this file touches
 * `process.argv`, `process.env` and the exit code.
 */
import {
  configDirectory,
  createSchoolSession,
  listSchoolTools,
  openLoginSession,
  openServedSchool,
  packageVersion,
  runHosted,
  runStoreCommand,
  startDemoSchool,
  type DemoSchool,
} from './app/index.js';
import { commandUsage, SCHOOL_MCP_COMMAND_LINE } from './command-line/index.js';
import { loadConfig, type Config } from './config/index.js';
import { isSchoolMcpError } from './errors.js';
import { resolveSecretFiles } from './secret-file.js';
import { createLogger, type Logger } from './log.js';
import { createLogRelay, type LogRelay } from './server/index.js';
import { serveOverHttp, serveOverStdio } from './transports/index.js';

// The version every command reports and the catalogue cache is keyed by: package.json's, read in one place.
const VERSION = packageVersion() ?? '0.0.0-unknown';

async function main(): Promise<number> {
  let config: Config;
  try {
    config = await resolveSecretFiles(loadConfig(process.argv.slice(2), process.env));
  } catch (error) {
    process.stderr.write(`school-mcp: ${describe(error)}\n`);
    return USAGE_ERROR;
  }
  // The server's warnings also reach the MCP hosts connected, as log messages (already redacted).
  const logs = createLogRelay();
  const logger = createLogger({
    level: config.logLevel,
    write: (line, level) => {
      process.stderr.write(`${line}\n`);
      logs.publish(level, line);
    },
  });
  if (config.clientSecret !== undefined) logger.redact(config.clientSecret);
  for (const warning of config.warnings) logger.warn(warning);
  if (config.environment['NODE_TLS_REJECT_UNAUTHORIZED'] === '0') {
    // NET-06: certificate checks are never turned off by school-mcp; say loudly that they are off.
    logger.warn('NODE_TLS_REJECT_UNAUTHORIZED=0 is set: TLS certificates are NOT being verified for any connection');
  }
  switch (config.command) {
    case 'help':
      await writeStdout(commandUsage(SCHOOL_MCP_COMMAND_LINE, config.helpFor));
      return 0;
    case 'version':
      await writeStdout(`${VERSION}\n`);
      return 0;
    case 'sandbox': {
      // Each command loads the parts it needs; a stdio start, which a host waits on, loads the fewest.
      const { runSandboxCommand } = await import('@school-mcp/sandbox');
      await runSandboxCommand(config.sandbox);
      return 0;
    }
    case 'tools':
      return runToolsCommand(config, logger);
    case 'login':
    case 'logout':
    case 'status':
      return runAccountCommand(config, logger);
    case 'serve':
      return serve(config, logger, logs);
    case 'store-keys':
    case 'store-reseal':
    case 'store-reset-secrets':
      return runStore(config, logger);
  }
}

interface SchoolTarget {
  readonly schoolUrl: URL;
  readonly configDir: string;
}

/** Runs with the configured school, or with a demo school started for the run. */
async function withTarget<T>(config: Config, logger: Logger, run: (target: SchoolTarget) => Promise<T>): Promise<T> {
  let demo: DemoSchool | undefined;
  if (config.demo) {
    demo = await startDemoSchool({ autoApprove: false });
    logger.info('demo school started', { url: demo.schoolUrl.href });
  }
  try {
    return await run({
      schoolUrl: demo?.schoolUrl ?? config.schoolUrl!,
      configDir: config.configDir ?? demo?.configDir ?? configDirectory(config),
    });
  } finally {
    await demo?.close();
  }
}

async function serve(config: Config, logger: Logger, logs: LogRelay): Promise<number> {
  if (config.hosted) return runHosted(config, logger, VERSION);
  return withTarget(config, logger, async ({ schoolUrl, configDir }) => {
    // A school that cannot be loaded is served too: the host learns why from the tools, not a closed connection.
    const school = await openServedSchool({ config, schoolUrl, logger, configDir, version: VERSION, logs });
    try {
      let transport: { readonly closed: Promise<void>; close(): Promise<void> };
      if (config.http) {
        transport = await serveOverHttp(school.factory, config.http, logger);
        logger.info('tools ready', school.served);
      } else {
        logger.info('serving over stdio', school.served);
        // The host closed stdin: it is done with this server, and a pending link dies with it.
        transport = serveOverStdio(school.factory, logger, {
          onInputEnd: () => school.leave('input-closed'),
          onFirstListAnswered: () => school.afterToolsListed(),
        });
      }
      // On a signal the transport closes first (no new calls, open streams end), then the
      // school closes: pending consents end and their attempts settle before the exit.
      const stop = () => {
        school.leave('stopped');
        void transport.close();
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      await transport.closed;
      return 0;
    } finally {
      await school.close();
    }
  });
}

async function runAccountCommand(config: Config, logger: Logger): Promise<number> {
  const write = (line: string) => process.stdout.write(`${line}\n`);
  const { runLogin, runLogout, runStatus } = await import('./cli/index.js');
  return withTarget(config, logger, async ({ schoolUrl, configDir }) => {
    const target = { config, schoolUrl, logger, configDir };
    // `login` asks by default for what a server's first call would: the reads of the enabled toolsets.
    const { session, firstCallScopes } =
      config.command === 'login'
        ? await openLoginSession(target)
        : { session: createSchoolSession(target), firstCallScopes: [] };
    try {
      if (config.command === 'login') {
        const scopes = config.scopes === undefined ? firstCallScopes : config.scopes === 'least' ? [] : config.scopes;
        // `--paste` is a terminal command: stdin here is the user's, not an MCP client's (STDIO-02).
        await runLogin(
          session,
          {
            ...(scopes.length === 0 ? {} : { scopes: [...scopes] }),
            ...(config.pasteRedirect ? { paste: { input: process.stdin } } : {}),
          },
          write,
        );
      } else if (config.command === 'logout') {
        await runLogout(session, write);
      } else {
        await runStatus(session, write);
      }
      return 0;
    } finally {
      await session.close();
    }
  });
}

/** `school-mcp tools`: a listing needs no sign-in, and with `--openapi FILE` no school either. */
async function runToolsCommand(config: Config, logger: Logger): Promise<number> {
  const { buildToolsReport, formatToolsReport } = await import('./cli/index.js');
  const list = (schoolUrl: URL | undefined, configDir: string | undefined) =>
    listSchoolTools({ config, schoolUrl, configDir, version: VERSION });
  const listing =
    config.schoolUrl === undefined && !config.demo
      ? await list(undefined, config.configDir)
      : await withTarget(config, logger, ({ schoolUrl, configDir }) => list(schoolUrl, configDir));
  const report = buildToolsReport(listing);
  await writeStdout(config.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatToolsReport(report).join('\n')}\n`);
  return 0;
}

/** `school-mcp store …`: the report on stdout, the exit code saying whether the rotation is done. */
async function runStore(config: Config, logger: Logger): Promise<number> {
  const { storeCommandAnswer } = await import('./cli/index.js');
  const answer = storeCommandAnswer(await runStoreCommand(config, logger), config.json);
  await writeStdout(answer.text);
  return answer.exitCode;
}

/**
 * Resolves once the text is handed to the operating system. Writes to a pipe are asynchronous,
 * and `process.exit` would cut off whatever is still queued (anything past 64 KiB).
 */
function writeStdout(text: string): Promise<void> {
  return new Promise((resolve, reject) => process.stdout.write(text, (error) => (error ? reject(error) : resolve())));
}

/** The exit code of a command line that cannot run as written (POSIX utilities use 2). */
const USAGE_ERROR = 2;

function exitCodeOf(error: unknown): number {
  return isSchoolMcpError(error) && error.code === 'CONFIG_INVALID' ? USAGE_ERROR : 1;
}

function describe(error: unknown): string {
  if (isSchoolMcpError(error)) return `${error.message}${error.hint ? `\n  ${error.hint}` : ''} [${error.code}]`;
  return error instanceof Error ? error.message : String(error);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`school-mcp: ${describe(error)}\n`);
    process.exit(exitCodeOf(error));
  },
);
