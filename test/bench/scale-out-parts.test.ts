/** The scale-out harness's pure parts: how an instance is started and read, and how an answer is judged. */
import { describe, expect, it } from 'vitest';
import { RECONNECT_ADVICE } from '../../src/hosted/index.js';
import { staffRoster } from '@school-mcp/sandbox';
import { instanceArguments, listeningPort } from '../../tools/bench/scale-out/cluster.js';
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import {
  attemptHung,
  foreignMarkers,
  identityMarkers,
  saysSignInAgain,
  saysRetryShortly,
} from '../../tools/bench/scale-out/staff-load.js';

describe('the scale-out cluster (pure)', () => {
  it('starts an instance hosted on the shared store, told the public URL, with the secret from a file', () => {
    const args = instanceArguments({
      publicUrl: 'http://127.0.0.1:4000',
      schoolUrl: 'http://127.0.0.1:5000',
      clientId: 'sbxi_1',
      secretFile: '/tmp/s',
      store: 'redis://127.0.0.1:6379/0',
      port: 0,
      logLevel: 'debug',
      extra: ['--toolsets', 'account'],
    });
    expect(args.slice(0, 1)).toEqual(['--hosted']);
    const option = (flag: string) => args[args.indexOf(flag) + 1];
    expect(option('--public-url')).toBe('http://127.0.0.1:4000');
    expect(option('--store')).toBe('redis://127.0.0.1:6379/0');
    expect(option('--client-secret-file')).toBe('/tmp/s');
    expect(option('--port')).toBe('0');
    expect(option('--log-level')).toBe('debug');
    expect(args.slice(-2)).toEqual(['--toolsets', 'account']);
  });

  it('reads the port an instance listens on from its "serving hosted" line', () => {
    expect(
      listeningPort(
        'school-mcp [info] serving hosted publicUrl="http://127.0.0.1:4000" listening="http://127.0.0.1:43125" school="http://127.0.0.1:5000" tools=12',
      ),
    ).toBe(43125);
    expect(listeningPort('school-mcp [info] serving hosted publicUrl="http://127.0.0.1:4000"')).toBeUndefined();
  });
});

describe('the scale-out canaries (pure)', () => {
  const sessions = staffRoster(2).map((member, index) => ({ member, canary: `canary-${index}-x` }));
  const markers = identityMarkers(sessions);

  it("finds another person's canary, subject, name or email in an answer, and never the caller's own", () => {
    expect(foreignMarkers('Staff Member 001 <staff001@sandbox-academy.test> canary-3-x', 3, markers)).toEqual([]);
    expect(foreignMarkers('{"name":"canary-4-x"}', 3, markers)).toEqual(['canary-4-x']);
    expect(foreignMarkers('signed in as Ada Lovelace (usr_owner_ada)', 3, markers)).toEqual([
      'usr_owner_ada',
      'Ada Lovelace',
    ]);
    expect(foreignMarkers('staff002@sandbox-academy.test', 3, markers)).toEqual(['staff002@sandbox-academy.test']);
  });

  it('tells a lost grant from other errors', () => {
    expect(
      saysSignInAgain(
        'list_courses failed (OAUTH_SIGN_IN_REQUIRED). This connection is no longer signed in at the school.',
      ),
    ).toBe(true);
    expect(saysSignInAgain(`Not signed in to the school http://127.0.0.1:5000. ${RECONNECT_ADVICE}`)).toBe(true);
    expect(saysSignInAgain('update_account did not run: the approval state sent back was altered')).toBe(false);
  });

  it('tells an answer of a store that is away, which a client may retry, from other errors', () => {
    expect(
      saysRetryShortly(
        'get_account failed (STORE_UNAVAILABLE).\nThe Redis grant store could not read a school-grant record (Socket closed unexpectedly).',
      ),
    ).toBe(true);
    expect(
      saysRetryShortly('{"error":"temporarily_unavailable","error_description":"the store does not answer"}'),
    ).toBe(true);
    expect(
      saysRetryShortly(
        "get_account failed (OAUTH_LOCK_TIMEOUT).\nAnother school-mcp instance has been refreshing this person's school sign-in for over 15 s.",
      ),
    ).toBe(true);
    expect(
      saysRetryShortly(
        'The sign-in status could not be read: STORE_UNAVAILABLE: The Redis grant store could not read a school-grant record (read ECONNRESET).',
      ),
    ).toBe(true);
    expect(saysRetryShortly('get_account failed (OAUTH_SIGN_IN_REQUIRED).')).toBe(false);
  });

  it('counts as a hang only the client giving up on an attempt, not an answer that names a lock timeout', () => {
    expect(attemptHung(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out'))).toBe(true);
    expect(
      attemptHung(
        new Error(
          "list_courses failed (OAUTH_LOCK_TIMEOUT).\nAnother school-mcp instance has been refreshing this person's school sign-in for over 15 s.",
        ),
      ),
    ).toBe(false);
    expect(attemptHung(new TypeError('fetch failed'))).toBe(false);
  });
});
