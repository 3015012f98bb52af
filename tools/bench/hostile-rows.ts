/**
 * The hostile-document rows: school-mcp started on generated attack documents (API-11), from
 * spawn to the answer of its first `tools/list`, with the answer's size and the server's peak
 * resident set. Each run is a fresh process with an empty config directory.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fanOutDocument } from './hostile-documents.js';
import { reasonOf } from './latency.js';
import { startMcpServer } from './mcp-process.js';
import { SCHOOL_MCP_MAIN } from './paths.js';
import type { HostileRow } from './results.js';
import { spreadOf } from './stats.js';

interface HostileCase {
  readonly operations: number;
  readonly configuration: 'default' | '--toolsets all';
}

/** The cases: 5,000 operations in the default configuration, 500 with every tool listed; and the two others. */
const HOSTILE_CASES: readonly HostileCase[] = [
  { operations: 500, configuration: 'default' },
  { operations: 500, configuration: '--toolsets all' },
  { operations: 5_000, configuration: 'default' },
  { operations: 5_000, configuration: '--toolsets all' },
];

/** A school that is never contacted: listing tools needs no sign-in. */
const UNREACHED_SCHOOL = 'http://127.0.0.1:9';

/** `quick` leaves out the case beyond the issue's, the slowest by far. */
export async function measureHostile(
  runs: number,
  quick: boolean,
  scratch: string,
  progress: (line: string) => void,
): Promise<HostileRow[]> {
  const cases = quick
    ? HOSTILE_CASES.filter((entry) => !(entry.operations > 500 && entry.configuration === '--toolsets all'))
    : HOSTILE_CASES;
  const files = new Map<number, { path: string; bytes: number }>();
  for (const operations of new Set(cases.map((entry) => entry.operations))) {
    const text = JSON.stringify(fanOutDocument(operations));
    const path = join(scratch, `fan-out-${operations}.json`);
    await writeFile(path, text);
    files.set(operations, { path, bytes: Buffer.byteLength(text) });
  }
  const rows: HostileRow[] = [];
  for (const entry of cases) {
    const file = files.get(entry.operations)!;
    const document = `five-level \`$ref\` fan-out, ${entry.operations.toLocaleString('en-US')} operations`;
    progress(`hostile documents: ${document}, ${entry.configuration} (${runs} runs)`);
    const samples: { listMs: number; peakBytes: number; tools: number; listBytes: number }[] = [];
    try {
      for (let run = 0; run < runs; run++)
        samples.push(
          await listOnce(file.path, entry.configuration === 'default' ? [] : ['--toolsets', 'all'], scratch),
        );
    } catch (error) {
      rows.push({
        document,
        operations: entry.operations,
        documentBytes: file.bytes,
        configuration: entry.configuration,
        result: { ok: false, reason: reasonOf(error) },
      });
      continue;
    }
    rows.push({
      document,
      operations: entry.operations,
      documentBytes: file.bytes,
      configuration: entry.configuration,
      result: {
        ok: true,
        value: {
          tools: samples[0]!.tools,
          listBytes: samples[0]!.listBytes,
          listMs: spreadOf(samples.map((sample) => sample.listMs)),
          peakBytes: spreadOf(samples.map((sample) => sample.peakBytes)),
        },
      },
    });
  }
  return rows;
}

async function listOnce(document: string, extra: readonly string[], scratch: string) {
  const configDir = await mkdtemp(join(scratch, 'hostile-'));
  try {
    const server = await startMcpServer({
      script: SCHOOL_MCP_MAIN,
      args: ['--config-dir', configDir, '--school', UNREACHED_SCHOOL, '--openapi', document, ...extra],
      env: { HOME: configDir },
    });
    try {
      const peakBytes = await peakResidentBytes(server.pid);
      return {
        listMs: server.coldStartMs,
        peakBytes,
        tools: server.firstList.tools.length,
        listBytes: Buffer.byteLength(JSON.stringify(server.firstList)),
      };
    } finally {
      await server.close();
    }
  } finally {
    await rm(configDir, { recursive: true, force: true });
  }
}

/** The peak resident set of a process in bytes (VmHWM, Linux). */
async function peakResidentBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmHWM:\s+(\d+)\s+kB/m.exec(status)?.[1];
  if (kib === undefined) throw new Error(`no VmHWM for process ${pid}`);
  return Number(kib) * 1024;
}
