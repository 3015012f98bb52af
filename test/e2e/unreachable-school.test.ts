/**
 * A start whose school cannot be reached and that has no cached document: the server stays up
 * instead of closing the connection before `initialize`, which hosts show only as "connection
 * closed". It lists the account tools and `school_status`, answers every call with the coded
 * error and the next step, sends its warning to the host as a log message, and once the school
 * answers on that address (the sandbox, started on the same port) lists the school's tools,
 * tells the host so, and serves the next call; over stdio and over --http.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeConsent, startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { freePort } from '../helpers/free-port.js';
import { linkIn, MCP_TRANSPORTS, startMcpServer, type McpTestServer } from '../helpers/mcp-server.js';

type Result = {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
};

describe.each(MCP_TRANSPORTS)('a school that cannot be reached at start, over %s', (transport) => {
  let port: number;
  let server: McpTestServer;
  let sandbox: RunningSandbox | undefined;
  const logMessages: { level: string; data: unknown }[] = [];
  let listChanged = 0;

  beforeAll(async () => {
    // Nothing listens here until the second test starts the school on it.
    port = await freePort();
    server = await startMcpServer({
      transport,
      args: ['--school', `http://127.0.0.1:${port}`, '--no-browser', '--consent-wait', '60', '--link-wait', '60'],
    });
    server.client.setNotificationHandler('notifications/message', (notification) => {
      logMessages.push({ level: notification.params.level, data: notification.params.data });
    });
    server.client.setNotificationHandler('notifications/tools/list_changed', () => {
      listChanged += 1;
    });
  });

  afterAll(async () => {
    await server?.close();
    await sandbox?.close();
  });

  async function call(name: string, args: Record<string, unknown> = {}): Promise<Result> {
    return (await server.client.callTool({ name, arguments: args })) as Result;
  }

  /** Polls until `check` holds, within a generous bound for a busy machine. */
  async function eventually<T>(probe: () => Promise<T>, check: (value: T) => boolean, what: string): Promise<T> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const value = await probe();
      if (check(value)) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it('STDIO-08 answers initialize and tools/list, and every call names the problem and the next step', async () => {
    expect(server.client.getServerCapabilities()).toMatchObject({ tools: { listChanged: true }, logging: {} });
    const names = (await server.client.listTools()).tools.map((tool) => tool.name).sort();
    expect(names).toEqual(['school_status', 'sign_out', 'who_am_i']);

    const status = await call('school_status');
    expect(status.isError).toBe(true);
    const text = status.content[0]!.text!;
    expect(text).toContain('OPENAPI_FETCH_FAILED');
    expect(text).toContain(`127.0.0.1:${port}`);
    expect(text).toMatch(/Next step: /);
    expect(text).toMatch(/No restart is needed/);
    expect(status.structuredContent).toMatchObject({ available: false, code: 'OPENAPI_FETCH_FAILED' });

    // The start's warning reaches the host too, not only stderr: over stdio once it initializes
    // (over HTTP, said before any stream to the host is open, it stays on stderr).
    if (transport === 'stdio') {
      const warning = await eventually(
        async () => logMessages.find((message) => String(message.data).includes('could not be loaded')),
        (found) => found !== undefined,
        'the warning as a log message',
      );
      expect(warning!.level).toBe('warning');
    }
    expect(server.stderr.join('\n')).toMatch(/could not be loaded.*OPENAPI_FETCH_FAILED/);
  });

  it("STDIO-08 lists the school's tools once it answers on that address, tells the host, and serves the next call", async () => {
    sandbox = await startSandbox({ port, autoApprove: true });
    expect(sandbox.url).toBe(`http://127.0.0.1:${port}`);
    const recovered = await eventually(
      () => call('school_status'),
      (result) => result.isError !== true,
      'the school to be found again',
    );
    expect(recovered.structuredContent).toEqual({ available: true });
    await eventually(
      async () => listChanged,
      (count) => count > 0,
      'notifications/tools/list_changed',
    );

    const names = (await server.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['who_am_i', 'sign_out', 'list_courses']));

    // The call asks for consent; the played user approves the link the server printed.
    const approving = server.waitForLine(/\/oauth\/authorize\?/, 60_000).then(async (line) => {
      const callback = await completeConsent(linkIn(line), 'allow');
      await (await fetch(callback)).text();
    });
    const courses = await call('list_courses', { per_page: 1 });
    await approving;
    expect(courses.isError, courses.content[0]?.text).not.toBe(true);
    expect(courses.structuredContent?.['items']).toHaveLength(1);
  });
});
