/**
 * Hosted mode's tools: the school's catalogue loaded once, and for each caller (one staff member
 * through one client) a runtime of their own: an executor whose token source is that person's
 * school grant, and a server factory whose account tools speak of that person. Nothing of one
 * runtime is reachable from another.
 */
import { NO_AUDIT_LOG, type AuditLog } from '../audit/index.js';
import type { Config } from '../config/index.js';
import { createConsentCaller, createConsentStateCodec, type ConsentBroker } from '../consent/index.js';
import { createExecutor, type AccessTokenSource, type ExecutionOutcome } from '../executor/index.js';
import type { Logger } from '../log.js';
import {
  createSchoolServerFactory,
  storeOutageResult,
  type AccountService,
  type OperationCaller,
  type OperationResult,
  type ToolPlan,
} from '../server/index.js';
import type { CallerRuntime } from '../transports/index.js';
import { openCatalogue } from './open-catalogue.js';
import { isStoreOutage } from './store-outage-result.js';
import { toolCallEvent, type ToolCaller } from './tool-call-audit.js';

export interface HostedSchool {
  readonly plan: ToolPlan;
  /**
   * A runtime for one caller, from that caller's token source, account and step-ups; `caller`
   * names them in the audit log.
   */
  open(tokens: AccessTokenSource, account: AccountService, stepUps: ConsentBroker, caller?: ToolCaller): CallerRuntime;
}

export interface HostedSchoolOptions {
  readonly config: Config;
  readonly schoolUrl: URL;
  readonly logger: Logger;
  readonly version: string;
  /**
   * The key of the 2026-07-28 step-up `requestState`: shared by every instance on one store, so a
   * client's retry that lands on another instance is read there (`stepUpStateKey`).
   */
  readonly stateKey: Uint8Array;
  /** Records each tool call: tool, person, client, how it ended; none by default. */
  readonly audit?: AuditLog;
}

export async function openHostedSchool({
  config,
  schoolUrl,
  logger,
  version,
  stateKey,
  audit = NO_AUDIT_LOG,
}: HostedSchoolOptions): Promise<HostedSchool> {
  // No document cache in hosted mode: the store directory holds grants, and the document is public.
  const { fullCatalogue, catalogue, plan, listWarnings } = await openCatalogue({
    config,
    schoolUrl,
    configDir: undefined,
    onSchemaWarning: (message) => logger.warn(message),
  });
  for (const warning of [...fullCatalogue.warnings, ...catalogue.warnings, ...listWarnings]) logger.warn(warning);
  const apiBaseUrl = fullCatalogue.apiBase?.baseUrl ?? schoolUrl.origin;
  // One key for every caller of every instance: each state is sealed to its own person.
  const requestState = createConsentStateCodec(stateKey);
  const schoolName = schoolUrl.host;
  const consentLogger = logger.child('consent');
  return {
    plan,
    open(tokens, account, stepUps, caller) {
      const executor = createExecutor({ apiBaseUrl, tokens, logger });
      // The outcomes of each call's requests, by the call's signal (the one the pipeline hands to
      // `execute`): the last one is what its result says, for the audit log.
      const outcomesOf = new WeakMap<AbortSignal, ExecutionOutcome[]>();
      // The pipeline of every mode, with this person's step-ups as its consent: its budget is this caller's.
      const callAsCaller = createConsentCaller({
        async execute(operation, args, signal) {
          const outcome = await executor.execute(operation, args, { signal });
          outcomesOf.get(signal)?.push(outcome);
          // Not a school answer: the call did not run there, and gets the server's store outage result.
          if (isStoreOutage(outcome) && outcome.kind === 'error') throw outcome.error;
          return outcome;
        },
        broker: stepUps,
        scopeDescriptions: fullCatalogue.scopeDescriptions,
        schoolName,
        waitMs: config.consentWaitMs,
        linkWaitMs: config.linkWaitMs,
        requestState,
        logger: consentLogger,
        hosted: true,
      });
      const call: OperationCaller = async (operation, args, context, connection) => {
        // Names the tool only: lets an operator (and the scale-out suite) see which instance served what.
        logger.debug('tool call', { tool: operation.toolName });
        const outcomes: ExecutionOutcome[] = [];
        outcomesOf.set(context.mcpReq.signal, outcomes);
        let result: OperationResult;
        try {
          result = await callAsCaller(operation, args, context, connection);
        } catch (error) {
          if (!isStoreOutage(error)) {
            audit.record(toolCallEvent(operation.toolName, caller, { kind: 'thrown', error }));
            throw error;
          }
          result = storeOutageResult(operation.toolName);
        }
        audit.record(toolCallEvent(operation.toolName, caller, { kind: 'answered', outcome: outcomes.at(-1), result }));
        return result;
      };
      const factory = createSchoolServerFactory({ catalogue, plan, call, account, schoolName, version });
      return { factory, close: () => executor.close() };
    },
  };
}
