/**
 * The server while the school is out of reach, over an in-memory connection: a list waits for an
 * attempt at the school only so long (a school that never answers must not hold it past a host's
 * timeout), and an attempt that opens the school later still adds its tools to the connected
 * server and tells the host with one `notifications/tools/list_changed`.
 */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { SchoolMcpError } from '../../src/errors.js';
import type { ToolCatalogue } from '../../src/openapi/index.js';
import {
  createRecoveringServerFactory,
  SEARCH_TOOL,
  type SchoolOutage,
  type SchoolServerOptions,
} from '../../src/server/index.js';

const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const account = {
  status: () => Promise.reject(new Error('no account')),
  signOut: () => Promise.reject(new Error('no account')),
};
const emptyCatalogue = { operations: [], toolsets: new Map(), warnings: [] } as unknown as ToolCatalogue;
const opened: SchoolServerOptions = {
  catalogue: emptyCatalogue,
  plan: { direct: [], discovery: true },
  call: () => Promise.reject(new Error('no calls here')),
  account,
  schoolName: 'school.example',
  version: '0',
};

function hangingOutage(): { outage: SchoolOutage; open: () => void } {
  let open!: () => void;
  const answer = new Promise<SchoolServerOptions>((resolve) => (open = () => resolve(opened)));
  return {
    outage: {
      problem: () => new SchoolMcpError('OPENAPI_FETCH_FAILED', 'The school could not be reached (timed out).'),
      nextAttemptAt: () => 0,
      retry: () => answer,
    },
    open,
  };
}

async function connected(outage: SchoolOutage) {
  const factory = createRecoveringServerFactory({
    outage,
    account,
    schoolName: 'school.example',
    version: '0',
    attemptWaitMs: 50,
  });
  const server = factory();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '0' });
  let listChanged = 0;
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    listChanged += 1;
  });
  await server.connect(serverSide);
  await client.connect(clientSide);
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  return { client, listChanged: () => listChanged };
}

describe('createRecoveringServerFactory', () => {
  it('STDIO-08 answers a list without the school when the attempt does not settle in time', async () => {
    const { outage } = hangingOutage();
    const { client } = await connected(outage);
    const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(names).toEqual(['school_status', 'sign_out', 'who_am_i']);
    const status = (await client.callTool({ name: 'school_status', arguments: {} })) as { isError?: boolean };
    expect(status.isError).toBe(true);
  });

  it("STDIO-08 adds the school's tools once a late attempt opens it, and tells the host once", async () => {
    const { outage, open } = hangingOutage();
    const { client, listChanged } = await connected(outage);
    await client.listTools();
    open();
    const deadline = Date.now() + 30_000;
    while (listChanged() === 0 && Date.now() < deadline) {
      await client.ping();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(listChanged()).toBe(1);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining([SEARCH_TOOL, 'who_am_i', 'sign_out', 'school_status']));
    expect(names.filter((name) => name === 'who_am_i')).toHaveLength(1);
    const status = (await client.callTool({ name: 'school_status', arguments: {} })) as {
      isError?: boolean;
      structuredContent?: unknown;
    };
    expect(status.isError).not.toBe(true);
    expect(status.structuredContent).toEqual({ available: true });
  });
});
