/**
 * One scale measurement in a fresh process, so that its peak resident set is its own:
 * `node scale-probe.js DOCUMENT` prints one JSON line with the parse, catalogue build and schema
 * compile times (ms), the operation count, and the peak resident set before and after (bytes).
 */
import { fromJsonSchema } from '@modelcontextprotocol/server';
import type { FetchLike } from '../../src/network/index.js';
import { buildCatalog, loadDocument } from '../../src/openapi/index.js';

export interface ScaleSample {
  readonly operations: number;
  readonly parseMs: number;
  readonly buildMs: number;
  readonly compileMs: number;
  readonly baselinePeakBytes: number;
  readonly peakBytes: number;
}

const noNetwork: FetchLike = () => Promise.reject(new Error('the scale probe reads files only'));

async function probe(path: string): Promise<ScaleSample> {
  const baselinePeakBytes = process.resourceUsage().maxRSS * 1024;
  const started = performance.now();
  const loaded = await loadDocument({ schoolUrl: 'http://127.0.0.1:1', openapi: path, fetch: noNetwork });
  const parsed = performance.now();
  const catalog = await buildCatalog(loaded.document, { schoolUrl: 'http://127.0.0.1:1' });
  // Schemas are converted on first read; the build row keeps counting every operation's conversion.
  for (const operation of catalog.operations) void [operation.inputSchema, operation.outputSchema];
  const built = performance.now();
  for (const operation of catalog.operations) {
    fromJsonSchema(operation.inputSchema);
    if (operation.outputSchema !== undefined) fromJsonSchema(operation.outputSchema);
  }
  const compiled = performance.now();
  return {
    operations: catalog.operations.length,
    parseMs: parsed - started,
    buildMs: built - parsed,
    compileMs: compiled - built,
    baselinePeakBytes,
    peakBytes: process.resourceUsage().maxRSS * 1024,
  };
}

const path = process.argv[2];
if (path === undefined) {
  process.stderr.write('usage: scale-probe DOCUMENT\n');
  process.exit(2);
}
probe(path).then(
  (sample) => process.stdout.write(`${JSON.stringify(sample)}\n`),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
