/**
 * `--demo` in a host that starts a server per call: the demo school lives inside that process,
 * so no sign-in started there can complete. The pending result says so, with the one command
 * that gives a school that outlives the call, instead of promising that calling again continues.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { pendingResult, type PendingConsent } from '../../src/consent/index.js';
import { startStdioServer, type StdioServer } from '../helpers/mcp-stdio.js';

let server: StdioServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const CONSENT: PendingConsent = {
  url: 'http://127.0.0.1:4000/oauth/authorize?state=abc',
  scopes: ['courses:read', 'openid', 'profile'],
  newScopes: ['courses:read'],
  startedAt: Date.UTC(2026, 0, 1, 9, 0),
  expiresAt: Date.UTC(2026, 0, 1, 9, 5),
};

const textOf = (result: { content: unknown[] }) =>
  (result.content as { text?: string }[]).map((block) => block.text ?? '').join('\n');

describe('--demo in a host that ends the server after each answer', () => {
  it('the pending result names the command that runs a school outliving the call, only for a demo school', () => {
    const wording = { toolName: 'list_courses', school: '127.0.0.1:4000', scopeDescriptions: {} };
    const demo = textOf(pendingResult(CONSENT, { ...wording, demoSchool: true }, 0));
    expect(demo).toContain('With --demo no sign-in can complete in such a host');
    expect(demo).toContain('`school-mcp sandbox --port 8787`');
    expect(demo).toContain('`--school http://127.0.0.1:8787` in place of `--demo`');
    expect(
      textOf(
        pendingResult(CONSENT, { ...wording, loginCommand: 'school-mcp login --school https://school.example' }, 0),
      ),
    ).not.toContain('--demo');
  });

  it('says so in the real server started with --demo, whose call cannot be approved before it answers', async () => {
    server = await startStdioServer({ args: ['--demo', '--no-browser', '--consent-wait', '0.5'] });
    const result = (await server.client.callTool({ name: 'list_courses', arguments: {} })) as {
      isError?: boolean;
      content: unknown[];
    };
    const text = textOf(result);
    expect(text).toMatch(/\/oauth\/authorize\?/);
    expect(text).toContain('With --demo no sign-in can complete in such a host');
    expect(text).toContain('school-mcp sandbox --port 8787');
  });
});
