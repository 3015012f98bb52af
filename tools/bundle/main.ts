/** `npm run bundle [-- --out DIR]`: writes school-mcp-<version>.mcpb (default: into dist/bundle). */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildBundle } from './build-bundle.js';

const root = resolve(import.meta.dirname, '../../..');
const { values } = parseArgs({ options: { out: { type: 'string' } } });

buildBundle({ root, outDir: resolve(values.out ?? resolve(root, 'dist/bundle')) }).then(
  (path) => process.stdout.write(`${path}\n`),
  (error: unknown) => {
    process.stderr.write(`bundle: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
