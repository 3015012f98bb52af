/**
 * One scale measurement in a fresh process, so that its peak resident set is its own:
 * `node scale-probe.js DOCUMENT [MOST_COMPILED]` prints one JSON line with the parse, catalogue
 * build and schema compile times (ms), the operation count, and the peak resident set before and
 * after (bytes). With MOST_COMPILED, only an even spread of that many operations is compiled.
 */
import { fromJsonSchema } from '@modelcontextprotocol/server';
import type { FetchLike } from '../../src/network/index.js';
import { buildCatalogue, loadDocument } from '../../src/openapi/index.js';

export interface ScaleSample {
  readonly operations: number;
  readonly parseMs: number;
  readonly buildMs: number;
  readonly compileMs: number;
  readonly baselinePeakBytes: number;
  readonly peakBytes: number;
}

const noNetwork: FetchLike = () => Promise.reject(new Error('the scale probe reads files only'));

function evenSpread<T>(items: readonly T[], most: number): readonly T[] {
  const step = Math.max(1, Math.ceil(items.length / most));
  return items.filter((_, index) => index % step === 0);
}

async function probe(path: string, mostCompiled: number): Promise<ScaleSample> {
  const baselinePeakBytes = process.resourceUsage().maxRSS * 1024;
  const started = performance.now();
  const loaded = await loadDocument({ schoolUrl: 'http://127.0.0.1:1', openapi: path, fetch: noNetwork });
  const parsed = performance.now();
  const catalogue = await buildCatalogue(loaded.document, { schoolUrl: 'http://127.0.0.1:1' });
  // Schemas are converted on first read; the build row keeps counting every operation's conversion.
  for (const operation of catalogue.operations) void [operation.inputSchema, operation.outputSchema];
  const built = performance.now();
  for (const operation of evenSpread(catalogue.operations, mostCompiled)) {
    fromJsonSchema(operation.inputSchema);
    if (operation.outputSchema !== undefined) fromJsonSchema(operation.outputSchema);
  }
  const compiled = performance.now();
  return {
    operations: catalogue.operations.length,
    parseMs: parsed - started,
    buildMs: built - parsed,
    compileMs: compiled - built,
    baselinePeakBytes,
    peakBytes: process.resourceUsage().maxRSS * 1024,
  };
}

const path = process.argv[2];
const mostCompiled = process.argv[3] === undefined ? Number.POSITIVE_INFINITY : Number(process.argv[3]);
if (path === undefined || !(mostCompiled > 0)) {
  process.stderr.write('usage: scale-probe DOCUMENT [MOST_COMPILED]\n');
  process.exit(2);
}
probe(path, mostCompiled).then(
  (sample) => process.stdout.write(`${JSON.stringify(sample)}\n`),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
