/**
 * The school as `serve` runs it: opened, with the server factory for its tools; or, when its API
 * description cannot be loaded at start, a server that stays up and says why (`school_status`,
 * the coded error on every call) and serves the school's tools as soon as it answers. Only a
 * `SchoolMcpError` (the school or its document) is served this way; anything else still ends
 * the start.
 */
import { isSchoolMcpError, type SchoolMcpError } from '../errors.js';
import type { LeavingReason } from '../consent/index.js';
import type { Logger } from '../log.js';
import {
  createRecoveringServerFactory,
  createSchoolServerFactory,
  SCHOOL_STATUS_TOOL,
  type LogRelay,
  type SchoolServerFactory,
  type SchoolServerOptions,
} from '../server/index.js';
import { accountServiceOf } from './account-service.js';
import { createSchoolSession, openSchool, type OpenSchool, type OpenSchoolOptions } from './open-school.js';
import { reachSchoolLater } from './school-reach.js';

export interface ServedSchool {
  readonly factory: SchoolServerFactory;
  /** What the start serves, for its log line. */
  readonly served: Record<string, unknown>;
  leave(reason: LeavingReason): void;
  afterToolsListed(): void;
  close(): Promise<void>;
}

export interface ServedSchoolOptions extends OpenSchoolOptions {
  readonly version: string;
  readonly logs?: LogRelay;
}

export async function openServedSchool(options: ServedSchoolOptions): Promise<ServedSchool> {
  const { schoolUrl, logger, version, logs } = options;
  const serverOptions = (school: OpenSchool): SchoolServerOptions => ({
    catalogue: school.catalogue,
    plan: school.plan,
    call: school.call,
    account: school.account,
    schoolName: school.schoolUrl.host,
    version,
    ...(logs === undefined ? {} : { logs }),
  });
  let school: OpenSchool;
  try {
    school = await openSchool(options);
  } catch (error) {
    if (!isSchoolMcpError(error)) throw error;
    return servedUntilReachable(options, error, serverOptions, logger);
  }
  return {
    factory: createSchoolServerFactory(serverOptions(school)),
    served: { school: schoolUrl.origin, tools: school.plan.direct.length, discovery: school.plan.discovery },
    leave: (reason) => school.leave(reason),
    afterToolsListed: () => school.afterToolsListed(),
    close: () => school.close(),
  };
}

function servedUntilReachable(
  options: ServedSchoolOptions,
  failure: SchoolMcpError,
  serverOptions: (school: OpenSchool) => SchoolServerOptions,
  logger: Logger,
): ServedSchool {
  logger.warn(
    `the school's API description could not be loaded; serving ${SCHOOL_STATUS_TOOL} until it can, and trying again when the host lists or calls`,
    {
      errorCode: failure.code,
      error: failure.message,
      ...(failure.hint === undefined ? {} : { hint: failure.hint }),
    },
  );
  const reach = reachSchoolLater({ failure, open: () => openSchool(options), serverOptions, logger });
  // Sign-in status and sign-out need the school's sign-in, not its API description.
  const session = createSchoolSession(options);
  const factory = createRecoveringServerFactory({
    outage: reach.outage,
    account: accountServiceOf(session, () => session.revoke()),
    schoolName: options.schoolUrl.host,
    version: options.version,
    ...(options.logs === undefined ? {} : { logs: options.logs }),
  });
  return {
    factory,
    served: { school: options.schoolUrl.origin, tools: 0, unavailable: failure.code },
    leave: (reason) => reach.opened()?.leave(reason),
    afterToolsListed: () => reach.opened()?.afterToolsListed(),
    async close() {
      await Promise.allSettled([session.close(), reach.opened()?.close()]);
    },
  };
}
