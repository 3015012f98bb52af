/**
 * `school-mcp --hosted`: the grant store, the school's tools and the hosted server wired from the
 * config, served until SIGINT or SIGTERM. With `--demo`, a sandbox school on 127.0.0.1 with a
 * registered integration, a throw-away store and key, and a walkthrough on stderr.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NO_AUDIT_LOG, openAuditTarget, type AuditTarget } from '../audit/index.js';
import type { Config, HostedConfig } from '../config/index.js';
import { SchoolMcpError } from '../errors.js';
import {
  createInProcessBus,
  openDirectoryStore,
  openRedisStore,
  parseStoreLocation,
  readingUnreadableAsAbsent,
  readStoreKeyFile,
  storeKeysFromText,
  type GrantStore,
  type MessageBus,
  type StoreKeyring,
} from '../grant-store/index.js';
import { callerKey, drainGraceMs, parsePublicUrl, startHostedServer, stepUpStateKey } from '../hosted/index.js';
import type { Logger } from '../log.js';
import { openCallerEndpoints } from '../transports/index.js';
import { startDemoSchool, type DemoSchool } from './demo-school.js';
import { demoWalkthrough } from './hosted-walkthrough.js';
import { openHostedSchool } from './hosted-school.js';
import { configDirectory } from './open-school.js';

/** Expired codes, sessions and flows leave the store this often. */
const SWEEP_INTERVAL_MS = 10 * 60 * 1000;
/** What a first sign-in asks the school for, besides `openid profile`: the reads every listing needs. */
const FIRST_SCOPES = ['account:read', 'courses:read'];

function configInvalid(message: string): SchoolMcpError {
  return new SchoolMcpError('CONFIG_INVALID', message, { hint: 'run `school-mcp --help` for the options' });
}

/** The store keys of `--store-key-file`, else of `SCHOOL_MCP_STORE_KEY`. */
export async function keyringOf(hosted: Pick<HostedConfig, 'storeKeyFile' | 'storeKey'>): Promise<StoreKeyring> {
  if (hosted.storeKeyFile !== undefined) return readStoreKeyFile(hosted.storeKeyFile);
  if (hosted.storeKey !== undefined) return storeKeysFromText(hosted.storeKey);
  return storeKeysFromText('');
}

/** What `--store` (or `SCHOOL_MCP_STORE`) names, else `hosted-store` in the config directory. */
export function storeLocationText(config: Config, storeDir: string | undefined): string {
  return storeDir ?? join(configDirectory(config), 'hosted-store');
}

/**
 * The directory or Redis store `--store` names, and the bus between the instances that share it
 * (Redis pub/sub; in the process for a directory, which serves one instance). With `--demo` and no
 * Redis URL, a throw-away directory; a Redis store also serves the demo, so the shared store can
 * be tried end to end.
 */
async function openStore(
  config: Config,
  keyring: StoreKeyring,
  demoStore: string | undefined,
  logger: Logger,
): Promise<{ store: GrantStore; bus: MessageBus; close: () => Promise<void> }> {
  const hosted = config.hosted!;
  const location = parseStoreLocation(storeLocationText(config, hosted.storeDir));
  if (!location.ok) throw configInvalid(`--store: ${location.reason}`);
  if (location.location.kind === 'redis') {
    const store = await openRedisStore({
      address: location.location.address,
      password: hosted.redisPassword,
      keyring,
      logger,
    });
    const bus = await store.openMessageBus().catch(async (error: unknown) => {
      await store.close();
      throw error;
    });
    return {
      store,
      bus,
      close: async () => {
        await bus.close();
        await store.close();
      },
    };
  }
  const store = await openDirectoryStore({ dir: demoStore ?? location.location.dir, keyring, logger });
  const bus = createInProcessBus();
  return { store, bus, close: () => bus.close() };
}

/** `--audit-log`'s target, opened before anything is served: a path that cannot be written stops the start. */
async function openAudit(target: string | undefined, logger: Logger): Promise<AuditTarget | undefined> {
  if (target === undefined) return undefined;
  const log = logger.child('audit');
  return openAuditTarget(target, {
    onFailure: (message, error) =>
      log.error(message, { error: error instanceof Error ? error.message : String(error) }),
  }).catch((error: unknown) => {
    throw configInvalid(
      `--audit-log: cannot open ${target}: ${error instanceof Error ? error.message : String(error)}`,
    );
  });
}

/**
 * Resolves with the first SIGINT or SIGTERM. Listening starts when this is called: a signal that
 * comes before a listener is in place ends the process at once, with nothing drained.
 */
function stopSignal(): { readonly received: Promise<NodeJS.Signals>; stopListening(): void } {
  let resolve!: (signal: NodeJS.Signals) => void;
  const received = new Promise<NodeJS.Signals>((done) => (resolve = done));
  const onInt = () => resolve('SIGINT');
  const onTerm = () => resolve('SIGTERM');
  // `once`: a second signal of the same kind finds no listener left and ends the process at once.
  process.once('SIGINT', onInt);
  process.once('SIGTERM', onTerm);
  return {
    received,
    stopListening() {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    },
  };
}

export async function serveHosted(config: Config, logger: Logger, version: string): Promise<number> {
  const hosted = config.hosted!;
  let demo: DemoSchool | undefined;
  let demoStore: string | undefined;
  let closeStore = async (): Promise<void> => undefined;
  const audit = await openAudit(hosted.auditLog, logger);
  // logrotate moves the file and sends SIGHUP: the next line goes to a new file at the path.
  const reopenAudit = () => audit?.reopen();
  if (audit !== undefined) process.on('SIGHUP', reopenAudit);
  // Before anything is served, so that whoever sees "serving hosted" may stop the process at once
  // and still get a drain: a signal during the start is answered once the start has finished.
  const stop = stopSignal();
  try {
    if (config.demo) {
      demo = await startDemoSchool({});
      demoStore = await mkdtemp(join(tmpdir(), 'school-mcp-hosted-demo-'));
    }
    const schoolUrl = demo?.schoolUrl ?? config.schoolUrl!;
    const publicUrl = hosted.publicUrl === undefined ? undefined : parsePublicUrl(hosted.publicUrl);
    if (publicUrl !== undefined && !publicUrl.ok) throw configInvalid(`--public-url: ${publicUrl.reason}`);
    if (!demo && config.clientSecret === undefined)
      throw configInvalid(
        "--hosted needs the integration's secret: --client-secret-file FILE or SCHOOL_MCP_CLIENT_SECRET",
      );
    const keyring = demo ? storeKeysFromText(randomBytes(32).toString('base64')) : await keyringOf(hosted);
    const opened = await openStore(config, keyring, demoStore, logger);
    closeStore = opened.close;
    const store = opened.store;
    const school = await openHostedSchool({
      config,
      schoolUrl,
      logger,
      version,
      stateKey: await stepUpStateKey(store),
      audit: audit ?? NO_AUDIT_LOG,
    });
    const endpoints = await openCallerEndpoints({
      maxCallers: 256,
      onerror: (error) => logger.debug('MCP request failed', { error: error.message }),
      // Any instance on the same store serves any 2025-11-25 session; the instance name only tells a copy's own bus messages apart.
      sharing: {
        store: readingUnreadableAsAbsent(store, logger),
        bus: opened.bus,
        instance: randomBytes(9).toString('base64url'),
      },
    });
    const server = await startHostedServer({
      ...(publicUrl?.ok ? { publicUrl: publicUrl.url } : {}),
      host: hosted.host,
      port: hosted.port,
      allowedHosts: hosted.allowedHosts,
      allowedOrigins: hosted.allowedOrigins,
      trustProxy: hosted.trustProxy,
      registration: hosted.registration,
      store,
      logger,
      audit: audit ?? NO_AUDIT_LOG,
      school: (url) => {
        if (demo) {
          const credentials = demo.sandbox.registerIntegration({
            clientName: 'school-mcp (hosted demo)',
            redirectUris: [url.schoolCallback],
          });
          return {
            schoolUrl,
            clientId: credentials.clientId,
            clientSecret: credentials.clientSecret,
            callback: url.schoolCallback,
            scopes: FIRST_SCOPES,
          };
        }
        return {
          schoolUrl,
          clientId: config.clientId!,
          clientSecret: config.clientSecret!,
          callback: url.schoolCallback,
          scopes: FIRST_SCOPES,
        };
      },
      mcp: (req, res, caller, access) =>
        endpoints.handle(req, res, { caller: callerKey(caller), person: caller.sub }, () =>
          school.open(access.tokens, access.account, access.stepUps, { sub: caller.sub, clientId: caller.clientId }),
        ),
    });
    logger.info('serving hosted', {
      publicUrl: server.publicUrl.base,
      listening: server.listenUrl,
      school: schoolUrl.origin,
      tools: school.plan.direct.length,
      audit: audit?.description ?? 'off',
    });
    if (demo) process.stderr.write(demoWalkthrough(server.publicUrl.base, schoolUrl.href));
    const sweeper = setInterval(
      () => void store.sweep().catch((error: unknown) => logger.warn('store sweep failed', { error: String(error) })),
      SWEEP_INTERVAL_MS,
    );
    sweeper.unref();
    const signal = await stop.received;
    clearInterval(sweeper);
    logger.info('stopping', { signal });
    const outcome = await server.drain(drainGraceMs(hosted.drainSeconds));
    if (outcome === 'cut')
      logger.warn('requests still running after --drain-seconds were cut', { drainSeconds: hosted.drainSeconds });
    await endpoints.close();
    logger.info('stopped');
    return 0;
  } finally {
    stop.stopListening();
    process.off('SIGHUP', reopenAudit);
    await audit?.close();
    await closeStore();
    await demo?.close();
    if (demoStore !== undefined) await rm(demoStore, { recursive: true, force: true });
  }
}
