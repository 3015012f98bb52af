/**
 * A school that did not open at start (its API description could not be fetched or read), tried
 * again when a host lists or calls, at the pace of `retry-cadence.ts`, until it opens. What
 * failed is kept, coded, for the tool results that report it.
 * @see SECURITY.md STDIO-08
 */
import { isSchoolMcpError, SchoolMcpError } from '../errors.js';
import type { Logger } from '../log.js';
import type { SchoolOutage, SchoolServerOptions } from '../server/index.js';
import type { OpenSchool } from './open-school.js';
import { retryDelayMs } from './retry-cadence.js';

export interface SchoolReach {
  readonly outage: SchoolOutage;
  /** The school, once an attempt opened it. */
  opened(): OpenSchool | undefined;
}

export interface SchoolReachOptions {
  /** What the start's attempt threw. */
  readonly failure: SchoolMcpError;
  readonly open: () => Promise<OpenSchool>;
  readonly serverOptions: (school: OpenSchool) => SchoolServerOptions;
  readonly logger: Logger;
  readonly now?: () => number;
}

export function reachSchoolLater({
  failure,
  open,
  serverOptions,
  logger,
  now = Date.now,
}: SchoolReachOptions): SchoolReach {
  let problem = failure;
  let failures = 1;
  let nextAttemptAt = now() + retryDelayMs(failures);
  let school: { readonly open: OpenSchool; readonly options: SchoolServerOptions } | undefined;
  let attempt: Promise<void> | undefined;

  const tryOnce = async () => {
    try {
      const opened = await open();
      school = { open: opened, options: serverOptions(opened) };
      logger.info('the school answers again; its tools are listed now');
    } catch (error) {
      problem = isSchoolMcpError(error)
        ? error
        : new SchoolMcpError('OPENAPI_FETCH_FAILED', error instanceof Error ? error.message : String(error));
      failures += 1;
      nextAttemptAt = now() + retryDelayMs(failures);
      logger.debug('the school is still not available', { errorCode: problem.code, retryInMs: nextAttemptAt - now() });
    }
  };

  return {
    outage: {
      problem: () => problem,
      nextAttemptAt: () => nextAttemptAt,
      async retry() {
        if (school === undefined && attempt === undefined && now() >= nextAttemptAt) {
          attempt = tryOnce().finally(() => (attempt = undefined));
        }
        await attempt;
        return school?.options;
      },
    },
    opened: () => school?.open,
  };
}
