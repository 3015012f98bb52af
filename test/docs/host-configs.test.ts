/**
 * Every host config the documentation publishes starts a server that answers `tools/list`: each
 * stdio entry (and `claude mcp add` line) of README.md, docs/install.md and docs/hosts/ is run as
 * written, with the clone's path and a sandbox school in place of the placeholders; each HTTP
 * entry is sent, with its header, to a `--http` server listening with a secret.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '@school-mcp/sandbox';
import { spawnHttpServer, type HttpProcess } from '../helpers/mcp-http.js';
import { collectLines } from '../helpers/stderr-lines.js';
import {
  claudeAddCommands,
  httpTarget,
  jsonEntries,
  runnable,
  type HostEntry,
  type HttpEntry,
  type StdioEntry,
} from './host-config-blocks.js';

const root = resolve(import.meta.dirname, '../..');
const hostPages = (await readdir(join(root, 'docs', 'hosts')))
  .filter((name) => name.endsWith('.md'))
  .map((name) => join('docs', 'hosts', name));
const pages = ['README.md', join('docs', 'install.md'), ...hostPages];
const published = await Promise.all(
  pages.map(async (page) => {
    const text = await readFile(join(root, page), 'utf8');
    return { page, entries: [...jsonEntries(text), ...claudeAddCommands(text)] as HostEntry[] };
  }),
);
const key = (entry: StdioEntry) => JSON.stringify([entry.command, ...entry.args]);
/** One run per distinct command line, named by the pages that publish it. */
function distinctStdio(): [string, StdioEntry][] {
  const byCommand = new Map<string, { entry: StdioEntry; where: string[] }>();
  for (const { page, entries } of published) {
    for (const entry of entries.filter((candidate): candidate is StdioEntry => candidate.kind === 'stdio')) {
      const seen = byCommand.get(key(entry)) ?? { entry, where: [] };
      seen.where.push(`${page} "${entry.name}"`);
      byCommand.set(key(entry), seen);
    }
  }
  return [...byCommand.values()].map(({ entry, where }) => [
    `${entry.args.slice(1).join(' ')} (${where.join(', ')})`,
    entry,
  ]);
}
const httpEntries = published.flatMap(({ page, entries }) =>
  entries
    .filter((entry): entry is HttpEntry => entry.kind === 'http')
    .map(
      (entry, index) =>
        [`${page} #${index + 1} "${entry.name}" (${Object.values(entry.headers).join(', ')})`, entry] as [
          string,
          HttpEntry,
        ],
    ),
);

let sandbox: RunningSandbox;
let home: string;

beforeAll(async () => {
  sandbox = await startSandbox({});
  home = await mkdtemp(join(tmpdir(), 'school-mcp-docs-'));
});

afterAll(async () => {
  await sandbox?.close();
  if (home !== undefined) await rm(home, { recursive: true, force: true });
});

async function listedTools(transport: StdioClientTransport | StreamableHTTPClientTransport): Promise<string[]> {
  const client = new Client({ name: 'docs-config-check', version: '1.0.0' });
  await client.connect(transport);
  try {
    return (await client.listTools()).tools.map((tool) => tool.name);
  } finally {
    await client.close();
  }
}

describe('the host configs of the documentation', () => {
  it('publishes a stdio config on every host page, and HTTP configs', () => {
    for (const page of hostPages.filter((name) => !name.endsWith('http.md'))) {
      expect(
        published.find((entry) => entry.page === page)?.entries.some((entry) => entry.kind === 'stdio'),
        page,
      ).toBe(true);
    }
    expect(httpEntries.length).toBeGreaterThanOrEqual(2);
  });

  it.each(distinctStdio())(
    'starts %s and answers tools/list',
    async (_name, entry) => {
      const { command, args } = runnable(entry, { clone: root, school: sandbox.url.replace(/\/$/, '') });
      const transport = new StdioClientTransport({
        command,
        args: [...args],
        stderr: 'pipe',
        env: { PATH: process.env.PATH ?? '', HOME: home },
      });
      const lines = collectLines(transport.stderr as Readable | null);
      const tools = await listedTools(transport).catch((error: unknown) => {
        throw new Error(`${String(error)}; stderr:\n${lines.stderr.join('\n')}`);
      });
      expect(tools).toEqual(expect.arrayContaining(['who_am_i', 'sign_out', 'search_operations']));
    },
    60_000,
  );

  describe('over HTTP', () => {
    const secret = 'docs-config-check-secret-0123456789';
    let server: HttpProcess;
    beforeAll(async () => {
      server = await spawnHttpServer({ args: ['--demo'], secret });
    }, 60_000);
    afterAll(async () => {
      await server?.close();
    });

    it.each(httpEntries)('%s reaches the endpoint with its header and answers tools/list', async (_name, entry) => {
      const { url, headers } = httpTarget(entry, server.url, secret);
      const tools = await listedTools(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
      expect(tools).toContain('who_am_i');
    });
  });
});
