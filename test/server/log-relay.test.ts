/**
 * The server's warnings as MCP log messages: sent at or above the level the host set, never the
 * debug or info lines, always as the logger wrote them (so with its redaction), and the lines
 * said before a host connected sent to it once it has initialized.
 */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, type Logger } from '../../src/log.js';
import { createLogRelay, createSchoolServerFactory, type LogRelay, type ToolPlan } from '../../src/server/index.js';
import type { ToolCatalogue } from '../../src/openapi/index.js';
import { KEPT_LOG_LINES } from '../../src/server/log-relay.js';

const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const emptyCatalogue = { operations: [], toolsets: new Map(), warnings: [] } as unknown as ToolCatalogue;
const plan: ToolPlan = { direct: [], discovery: false };

function relayedLogger(): { logger: Logger; logs: LogRelay } {
  const logs = createLogRelay();
  const logger = createLogger({ level: 'debug', write: (line, level) => logs.publish(level, line) });
  return { logger, logs };
}

async function connectedHost(
  logs: LogRelay,
): Promise<{ client: Client; messages: { level: string; data: unknown }[] }> {
  const factory = createSchoolServerFactory({
    catalogue: emptyCatalogue,
    plan,
    call: () => Promise.reject(new Error('no calls here')),
    account: {
      status: () => Promise.reject(new Error('no account')),
      signOut: () => Promise.reject(new Error('no account')),
    },
    schoolName: 'school.example',
    version: '0',
    logs,
  });
  const server = factory();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '0' });
  const messages: { level: string; data: unknown }[] = [];
  client.setNotificationHandler('notifications/message', (notification) => {
    messages.push({ level: notification.params.level, data: notification.params.data });
  });
  await server.connect(serverSide);
  await client.connect(clientSide);
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  return { client, messages };
}

/** A round trip: whatever the server sent before its answer to this ping has arrived. */
const settled = (client: Client) => client.ping();

describe('STDIO-07 log messages to the host', () => {
  it('STDIO-07 declares logging, sends warnings and errors, and never the debug or info lines', async () => {
    const { logger, logs } = relayedLogger();
    const { client, messages } = await connectedHost(logs);
    expect(client.getServerCapabilities()?.logging).toEqual({});
    logger.debug('a debug line');
    logger.info('an info line');
    logger.warn('the school is slow');
    logger.error('the school failed');
    await settled(client);
    expect(messages.map((message) => message.level)).toEqual(['warning', 'error']);
    expect(String(messages[0]!.data)).toContain('the school is slow');
  });

  it('STDIO-07 sends only what is at or above the level the host set with logging/setLevel', async () => {
    const { logger, logs } = relayedLogger();
    const { client, messages } = await connectedHost(logs);
    await client.setLoggingLevel('error');
    logger.warn('below the bar');
    logger.error('at the bar');
    await settled(client);
    expect(messages.map((message) => message.data)).toEqual([expect.stringContaining('at the bar')]);
  });

  it('STDIO-07 sends the line as the logger wrote it: registered secrets and secret fields redacted', async () => {
    const { logger, logs } = relayedLogger();
    const { client, messages } = await connectedHost(logs);
    const secret = 'sk-live-0123456789abcdef';
    logger.redact(secret);
    logger.warn(`refresh failed for ${secret}`, { access_token: 'eyJ.raw.token', school: 'https://school.example' });
    await settled(client);
    const sent = JSON.stringify(messages);
    expect(sent).not.toContain(secret);
    expect(sent).not.toContain('eyJ.raw.token');
    expect(sent).toContain('[redacted]');
  });

  it('STDIO-07 sends the warnings said before the host connected once it initializes, the last few only', async () => {
    const { logger, logs } = relayedLogger();
    for (let index = 1; index <= KEPT_LOG_LINES + 5; index++) logger.warn(`early warning ${index}`);
    const { client, messages } = await connectedHost(logs);
    await settled(client);
    expect(messages).toHaveLength(KEPT_LOG_LINES);
    expect(String(messages[0]!.data)).toContain('early warning 6');
  });
});
