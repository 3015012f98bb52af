/**
 * The sign-in session of `school-mcp login`. By default (the `reads-first` consent policy) it
 * reads the school's API description first, anonymously or from the cache, so that the login asks
 * for what the first call will need: the reads of the enabled toolsets, as the first consent of
 * a server would. A host that starts a server per call (which ends before a sign-in can finish)
 * is then one command away from working. Without the description the login asks for the sign-in
 * alone, as a first call then asks for the rest, and says so.
 */
import { isSchoolMcpError } from '../errors.js';
import type { SignInSession } from '../consent/index.js';
import { enabledScopeFacts, openCatalogue } from './open-catalogue.js';
import { createSchoolSession, type OpenSchoolOptions } from './open-school.js';
import { packageVersion } from './package-version.js';

export interface LoginSession {
  readonly session: SignInSession;
  /** What the first call of a server with this config asks for up front; empty when unknown. */
  readonly firstCallScopes: readonly string[];
}

export async function openLoginSession(options: OpenSchoolOptions): Promise<LoginSession> {
  const { config, schoolUrl, configDir, logger } = options;
  if (config.scopes !== undefined) return { session: createSchoolSession(options), firstCallScopes: [] };
  try {
    const opened = await openCatalogue({ config, schoolUrl, configDir, version: packageVersion() });
    const facts = enabledScopeFacts(opened);
    return { session: createSchoolSession(options, facts), firstCallScopes: facts.upFront };
  } catch (error) {
    if (!isSchoolMcpError(error)) throw error;
    logger.warn(
      "the school's API description could not be loaded, so this sign-in asks only for your identity; the first call asks for the rest",
      {
        errorCode: error.code,
        error: error.message,
      },
    );
    return { session: createSchoolSession(options), firstCallScopes: [] };
  }
}
