/** The grant store's failures, each with its stable code and the next step. */
import { isSchoolMcpError, SchoolMcpError } from '../errors.js';

/** Pure: whether an error is the store not answering (as opposed to a refused or damaged record). */
export function isStoreUnavailable(error: unknown): boolean {
  return isSchoolMcpError(error) && error.code === 'STORE_UNAVAILABLE';
}

export function storeUnsafe(message: string): SchoolMcpError {
  return new SchoolMcpError('STORE_UNSAFE', message, {
    hint: 'Give the store a directory of its own, owned by the user school-mcp runs as, with no symbolic links in it.',
  });
}

export function storeWriteFailed(what: string, cause: unknown): SchoolMcpError {
  return new SchoolMcpError(
    'STORE_WRITE_FAILED',
    `The grant store could not save ${what} (${(cause as NodeJS.ErrnoException).code ?? 'error'}).`,
    {
      cause,
      hint: 'Free disk space or fix the permissions of the store directory, then try again.',
    },
  );
}

export function storeKeyInvalid(reason: string): SchoolMcpError {
  return new SchoolMcpError('STORE_KEY_INVALID', `The grant store key is not usable: ${reason}.`, {
    hint: 'Set SCHOOL_MCP_STORE_KEY, or name a private key file, to 32 random bytes in base64 (openssl rand -base64 32); to rotate, put the new key first and keep the old one after it.',
  });
}

export function storeRecordUnreadable(reason: string): SchoolMcpError {
  return new SchoolMcpError('STORE_RECORD_UNREADABLE', `A record of the grant store cannot be opened: ${reason}.`, {
    hint: 'Add the key that sealed it back after the current one (SCHOOL_MCP_STORE_KEY="new,old") and run `school-mcp store reseal`; `school-mcp store keys` counts the records no key given opens.',
  });
}

export function storeUnavailable(what: string, cause: unknown): SchoolMcpError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new SchoolMcpError('STORE_UNAVAILABLE', `The Redis grant store could not ${what} (${reason}).`, {
    cause,
    hint: 'Start Redis or fix the network or SCHOOL_MCP_REDIS_PASSWORD, then retry: a running school-mcp reconnects by itself.',
  });
}

export function storeLockTimeout(what: string, waitMs: number): SchoolMcpError {
  return new SchoolMcpError(
    'STORE_LOCK_TIMEOUT',
    `Another school-mcp instance held the lock of ${what} for over ${waitMs} ms.`,
    {
      hint: 'Retry the request: a lock whose holder died runs out by itself.',
    },
  );
}
