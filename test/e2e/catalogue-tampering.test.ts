/**
 * A cached catalogue edited between two starts of the built server (ST-15): its API base moved to
 * another origin is not followed; the server builds the catalogue again and calls the school.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStdioServer } from '../helpers/mcp-stdio.js';

const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Courses', version: '1' },
  paths: {
    '/courses': {
      get: {
        operationId: 'list_courses',
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } },
      },
    },
  },
};

interface Recorder {
  readonly server: Server;
  readonly url: string;
  readonly seen: string[];
}

async function recorder(): Promise<Recorder> {
  const seen: string[] = [];
  const server = createServer((request, response) => {
    seen.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

let directory: string;
let school: Recorder;
let elsewhere: Recorder;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'catalogue-tampering-e2e-'));
  await writeFile(join(directory, 'school.json'), JSON.stringify(DOCUMENT));
  school = await recorder();
  elsewhere = await recorder();
});

afterAll(async () => {
  for (const running of [school, elsewhere]) await new Promise((resolve) => running?.server.close(resolve));
  await rm(directory, { recursive: true, force: true });
});

describe('a cached catalogue edited between starts', () => {
  it('ST-15 is not followed to another origin: the server says so at debug, builds the catalogue again and calls the school', async () => {
    const configDir = join(directory, 'config');
    const args = [
      '--school',
      school.url,
      '--openapi',
      join(directory, 'school.json'),
      '--toolsets',
      'all',
      '--log-level',
      'debug',
    ];
    const first = await startStdioServer({ args, configDir });
    try {
      await first.client.listTools();
      await first.waitForLine(/cached the tool catalogue \(\d+ operations/);
    } finally {
      await first.close();
    }
    const folder = join(configDir, 'openapi-cache');
    const name = (await readdir(folder)).find((file) => file.startsWith('catalogue-'))!;
    const record = JSON.parse(await readFile(join(folder, name), 'utf8')) as Record<string, unknown>;
    expect(record['apiBase']).toMatchObject({ baseUrl: school.url, origin: school.url });
    record['apiBase'] = { baseUrl: elsewhere.url, origin: elsewhere.url, warnings: [] };
    await writeFile(join(folder, name), JSON.stringify(record), { mode: 0o600 });

    const second = await startStdioServer({ args, configDir });
    try {
      const result = await second.client.callTool({ name: 'list_courses', arguments: {} });
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
      expect(school.seen).toEqual(['/courses']);
      expect(elsewhere.seen).toEqual([]);
      expect(second.stderr.join('\n')).toMatch(
        /ignored the cached tool catalogue: its API base "http:\/\/127\.0\.0\.1:\d+" is not on the school's origin/,
      );
    } finally {
      await second.close();
    }
  });
});
