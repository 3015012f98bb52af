/** The scale rows: catalogue build time and peak memory per document, each in a fresh process. */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BENCH_DIST, REAL_DOCUMENTS_DIR } from './paths.js';
import type { ScaleRow } from './results.js';
import { mustRun } from './run-command.js';
import type { ScaleSample } from './scale-probe.js';
import { spreadOf } from './stats.js';
import { syntheticDocument } from './synthetic-document.js';

const REAL_DOCUMENTS = ['thinkific-admin-v1.openapi.yaml', 'github-rest-2020-07-30.openapi.yaml'];

/** `compiledOperations`: how many operations' schemas each probe compiles (an even spread); all when infinite. */
export async function measureScale(
  sizes: readonly number[],
  runs: number,
  compiledOperations: number,
  scratch: string,
): Promise<ScaleRow[]> {
  const documents: { label: string; path: string }[] = [];
  for (const size of sizes) {
    const path = join(scratch, `synthetic-${size}.json`);
    await writeFile(path, JSON.stringify(syntheticDocument(size)));
    documents.push({ label: `generated, ${size} operations`, path });
  }
  for (const name of REAL_DOCUMENTS) documents.push({ label: name, path: join(REAL_DOCUMENTS_DIR, name) });

  const rows: ScaleRow[] = [];
  for (const { label, path } of documents) {
    if (!existsSync(path)) {
      rows.push({ document: label, result: { ok: false, reason: `${path} is not there` } });
      continue;
    }
    const samples: ScaleSample[] = [];
    try {
      for (let run = 0; run < runs; run++) {
        const output = await mustRun(process.execPath, [
          join(BENCH_DIST, 'scale-probe.js'),
          path,
          ...(Number.isFinite(compiledOperations) ? [String(compiledOperations)] : []),
        ]);
        samples.push(JSON.parse(output.trim().split('\n').pop()!) as ScaleSample);
      }
    } catch (error) {
      rows.push({
        document: label,
        result: { ok: false, reason: error instanceof Error ? error.message.split('\n')[0]! : String(error) },
      });
      continue;
    }
    rows.push({
      document: label,
      result: {
        ok: true,
        value: {
          operations: samples[0]!.operations,
          parseMs: spreadOf(samples.map((sample) => sample.parseMs)),
          buildMs: spreadOf(samples.map((sample) => sample.buildMs)),
          compileMs: spreadOf(samples.map((sample) => sample.compileMs)),
          peakBytes: spreadOf(samples.map((sample) => sample.peakBytes)),
          baselinePeakBytes: spreadOf(samples.map((sample) => sample.baselinePeakBytes)).median,
        },
      },
    });
  }
  return rows;
}
