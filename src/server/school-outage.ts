/**
 * A school whose API description could not be loaded: the server stays up, and says why. The
 * host still gets `initialize` and a tool list (the account tools and `school_status`), every
 * call answers with the coded error and what to do, and the school is tried again on the next
 * list or call, no more often than the retry cadence allows; once it answers, its tools are
 * listed and the host is told (`notifications/tools/list_changed`).
 * @see SECURITY.md STDIO-08
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { SchoolMcpError } from '../errors.js';
import type { SchoolServerOptions } from './create-server.js';

export const SCHOOL_STATUS_TOOL = 'school_status';

export interface SchoolOutage {
  /** What failed at the last attempt. */
  problem(): SchoolMcpError;
  /** When the next attempt may be made, in epoch milliseconds. */
  nextAttemptAt(): number;
  /**
   * Tries the school again unless the last try was too recent (then answers at once). The
   * school's server options once it opened; the same options on every later call.
   */
  retry(): Promise<SchoolServerOptions | undefined>;
}

/** Pure: the result of any call while the school is out of reach. */
export function outageResult(
  schoolName: string,
  problem: SchoolMcpError,
  nextAttemptAt: number,
  now: number,
): CallToolResult {
  const seconds = Math.max(0, Math.ceil((nextAttemptAt - now) / 1000));
  const retry =
    seconds === 0
      ? 'school-mcp tries again on the next call'
      : `school-mcp tries again on a call made in ${seconds} s or later`;
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text:
          `The school ${schoolName} is not available to school-mcp (${problem.code}): ${problem.message}\n` +
          `Next step: ${problem.hint ?? 'check the school address school-mcp was started with.'} ` +
          `Tell the user what failed; ${retry}, and lists the school's tools as soon as it answers. No restart is needed.`,
      },
    ],
    structuredContent: {
      available: false,
      code: problem.code,
      message: problem.message,
      ...(problem.hint === undefined ? {} : { hint: problem.hint }),
      retryInSeconds: seconds,
    },
  };
}

/** Pure: `school_status` once the school answers again. */
export function recoveredResult(schoolName: string): CallToolResult {
  return {
    content: [
      {
        type: 'text',
        text: `The school ${schoolName} answers again; its tools are listed now (list the tools again to see them).`,
      },
    ],
    structuredContent: { available: true },
  };
}
