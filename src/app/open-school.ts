/**
 * Everything one school needs at run time, wired from the config: its API description as a
 * catalogue, the sign-in session, the executor, and the tool plan. The parts stay ignorant of one
 * another; this is where they meet.
 */
import { homedir } from 'node:os';
import type { Config } from '../config/index.js';
import {
  openConversationConsent,
  openTerminalSignIn,
  type DocumentScopes,
  type LeavingReason,
  type SignInSession,
  type SignInSettings,
} from '../consent/index.js';
import { createExecutor, type Executor } from '../executor/index.js';
import type { Logger } from '../log.js';
import { loadUndici } from '../network/index.js';
import { defaultConfigDir } from '../oauth/index.js';
import { toolsetSummary, type ToolCatalogue } from '../openapi/index.js';
import type { AccountService, OperationCaller, ToolPlan } from '../server/index.js';
import { accountServiceOf } from './account-service.js';
import { createCallWarmUp } from './call-warm-up.js';
import { scheduleCatalogueWrite } from './catalogue-write.js';
import { loginCommandFor } from './login-command.js';
import { enabledScopeFacts, openCatalogue } from './open-catalogue.js';
import { packageVersion } from './package-version.js';

export interface OpenSchool {
  readonly schoolUrl: URL;
  /** The whole catalogue, before the user's selection. */
  readonly fullCatalogue: ToolCatalogue;
  /** The user's selection: read-only, toolsets, exact lists. */
  readonly catalogue: ToolCatalogue;
  readonly plan: ToolPlan;
  readonly session: SignInSession;
  readonly executor: Executor;
  readonly account: AccountService;
  /**
   * One tool call: the executor run, and when a permission is missing, consent asked for in the
   * conversation and the run repeated.
   */
  readonly call: OperationCaller;
  /**
   * This process is going away: calls waiting for an approval answer now, saying that its link
   * ends with the process and how to sign in otherwise.
   */
  leave(reason: LeavingReason): void;
  /** The host has its tool list: what the first call needs is loaded while it is idle. */
  afterToolsListed(): void;
  close(): Promise<void>;
}

export interface OpenSchoolOptions {
  readonly config: Config;
  readonly schoolUrl: URL;
  readonly logger: Logger;
  /** Where tokens and the document cache live; the config's or the platform's default. */
  readonly configDir: string;
}

export function configDirectory(config: Config): string {
  return (
    config.configDir ?? defaultConfigDir({ platform: process.platform, env: config.environment, homedir: homedir() })
  );
}

export async function openSchool({ config, schoolUrl, logger, configDir }: OpenSchoolOptions): Promise<OpenSchool> {
  // Schemas are converted when a tool is first listed, described or called; what that finds is logged then.
  const { loaded, fullCatalogue, catalogue, plan, listWarnings, storeCatalogue } = await openCatalogue({
    config,
    schoolUrl,
    configDir,
    onSchemaWarning: (message) => logger.warn(message),
    version: packageVersion(),
    onDebug: (message) => logger.debug(message),
  });
  const catalogueWrite = scheduleCatalogueWrite(storeCatalogue);
  const callWarmUp = createCallWarmUp(loadUndici, (error) =>
    logger.debug('loading the HTTP client ahead of the first call failed; the call loads it', { error: String(error) }),
  );
  let leaving: LeavingReason | undefined;
  if (loaded.source === 'cache-fallback')
    logger.warn('the school could not be reached; using the cached API description', { location: loaded.location });
  for (const warning of loaded.warnings) logger.warn(warning);
  if (fullCatalogue.upgradedFrom !== undefined) {
    logger.info(`the API description is ${fullCatalogue.upgradedFrom}; it was upgraded to OpenAPI 3 in memory`, {
      location: loaded.location,
    });
  }
  for (const warning of fullCatalogue.warnings) logger.warn(warning);
  logger.debug(`toolsets grouped by ${fullCatalogue.groupedBy}`, { count: fullCatalogue.toolsets.size });
  for (const { toolset, reads, writes, scopes } of toolsetSummary(fullCatalogue.operations, fullCatalogue.scopeRoles)) {
    logger.debug(`toolset ${toolset}`, { reads, writes, scopes: scopes.join(' ') });
  }
  for (const warning of catalogue.warnings) logger.warn(warning);
  for (const warning of listWarnings) logger.warn(warning);

  const documentScopes = enabledScopeFacts({ fullCatalogue, plan });
  const loginCommand = loginCommandFor(config, schoolUrl);
  const consent = openConversationConsent({
    settings: signInSettings({ config, schoolUrl, logger, configDir }, documentScopes),
    execute: (operation, args, signal) => executor.execute(operation, args, { signal }),
    scopeDescriptions: fullCatalogue.scopeDescriptions,
    schoolName: schoolUrl.host,
    waitMs: config.consentWaitMs,
    linkWaitMs: config.linkWaitMs,
    ...(loginCommand === undefined ? {} : { loginCommand }),
    ...(config.demo ? { demoSchool: true } : {}),
  });
  const { session } = consent;
  const apiBaseUrl = fullCatalogue.apiBase?.baseUrl ?? schoolUrl.origin;
  const executor = createExecutor({ apiBaseUrl, tokens: consent.tokens, logger });

  const account = accountServiceOf(session, () => consent.signOut());

  return {
    schoolUrl,
    fullCatalogue,
    catalogue,
    plan,
    session,
    executor,
    account,
    call: consent.call,
    leave(reason) {
      leaving = reason;
      consent.leave(reason);
    },
    afterToolsListed: () => callWarmUp.start(),
    async close() {
      callWarmUp.cancel();
      // A host that starts a server for a few calls closes its input soon after the first list:
      // the catalogue is written first, or no start of that host would ever read it. A signal means now.
      if (leaving !== 'stopped') await catalogueWrite.finish();
      await Promise.allSettled([consent.close(), executor.close()]);
    },
  };
}

/**
 * The sign-in session alone, for `login`, `logout` and `status`. Without document scopes (the API
 * description not read), a consent asks for what is needed, and read-only mode for the baseline only.
 */
export function createSchoolSession(options: OpenSchoolOptions, documentScopes?: DocumentScopes): SignInSession {
  return openTerminalSignIn(signInSettings(options, documentScopes));
}

function signInSettings(
  { config, schoolUrl, logger, configDir }: OpenSchoolOptions,
  documentScopes?: DocumentScopes,
): SignInSettings {
  return {
    schoolUrl,
    storeDir: configDir,
    ...(config.clientId === undefined ? {} : { clientId: config.clientId }),
    ...(config.clientSecret === undefined ? {} : { clientSecret: config.clientSecret }),
    ...(config.clientMetadataUrl === undefined ? {} : { clientMetadataUrl: config.clientMetadataUrl }),
    ...(config.callbackPort === undefined ? {} : { callbackPort: config.callbackPort }),
    scopePolicy:
      config.scopes === undefined
        ? { mode: 'reads-first' }
        : config.scopes === 'least'
          ? { mode: 'least' }
          : { mode: 'fixed', scopes: [...config.scopes] },
    ...(documentScopes === undefined ? {} : { documentScopes }),
    readOnly: config.readOnly,
    logger,
    openBrowser: config.openBrowser,
    environment: config.environment,
  };
}
