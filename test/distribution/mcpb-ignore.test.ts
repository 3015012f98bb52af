/**
 * `tools/bundle/.mcpbignore`, the list of production-tree files the bundle leaves out, read and
 * applied with the packer's own reader and checker (its defaults included), on paths of the kinds
 * found in the installed dependencies.
 */
import { readMcpbIgnorePatterns, shouldExclude } from '@anthropic-ai/mcpb';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const patterns = readMcpbIgnorePatterns(join(root, 'tools/bundle'));

const leftOut = [
  'node_modules/zod/src/index.ts',
  'node_modules/zod/src/v4/classic/tests/string.test.ts',
  'node_modules/zod/v4/core/index.d.cts',
  'node_modules/@hono/node-server/dist/index.d.mts',
  'node_modules/some-package/lib/helper.cts',
  'node_modules/some-package/lib/helper.mts',
  'node_modules/openid-client/node_modules/jose/README.md',
  'node_modules/zod/README.md',
  'node_modules/undici/docs/docs/api/Agent.md',
  'node_modules/some-package/CHANGELOG.MD',
  'node_modules/deep-equal/readme.markdown',
  // The packer's own defaults still apply.
  'node_modules/some-package/index.js.map',
  'node_modules/some-package/index.d.ts',
];

const kept = [
  'manifest.json',
  'package.json',
  // The package's own README, as npm publishes it; only the dependencies' Markdown is dead weight.
  'README.md',
  'LICENSE',
  'dist/bin/school-mcp.js',
  'node_modules/zod/index.js',
  'node_modules/zod/index.cjs',
  'node_modules/zod/v4/core/index.mjs',
  'node_modules/zod/package.json',
  'node_modules/some-addon/build/Release/addon.node',
  'node_modules/some-package/lib/module.wasm',
  'node_modules/jsesc/bin/jsesc',
  'node_modules/zod/LICENSE',
  'node_modules/open/license',
  'node_modules/jose/LICENSE.md',
  'node_modules/some-package/License.markdown',
  'node_modules/some-package/LICENCE.md',
  'node_modules/some-package/LICENSE-MIT.txt',
  'node_modules/some-package/MIT-LICENSE.md',
  'node_modules/some-package/NOTICE.md',
  'node_modules/some-package/THIRD_PARTY_NOTICES.md',
  'node_modules/some-package/copying.md',
];

describe('the bundle ignore file', () => {
  it('DIST-04 leaves out the TypeScript declarations and sources and the Markdown of the dependencies', () => {
    expect(leftOut.filter((path) => !shouldExclude(path, patterns))).toEqual([]);
  });

  it('DIST-04 keeps every licence or notice file, whatever its case or extension, and every file Node loads', () => {
    expect(kept.filter((path) => shouldExclude(path, patterns))).toEqual([]);
  });

  it('has no line the cases above do not need, so removing any one of them fails a case', () => {
    const verdicts = (lines: string[]) => [...leftOut, ...kept].map((path) => shouldExclude(path, lines));
    const withAll = verdicts(patterns);
    expect(patterns.length).toBeGreaterThan(0);
    for (const line of patterns) {
      expect(verdicts(patterns.filter((other) => other !== line)), `without ${line}`).not.toEqual(withAll);
    }
  });
});
