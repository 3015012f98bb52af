/**
 * The structure written in ARCHITECTURE.md, checked against the source: the import table is read
 * from that page, so the rule lives in one place. Every relative import of `src/` counts, type-only
 * and dynamic ones included, and so do the sandbox school's files (`packages/sandbox/src`, the part
 * `sandbox`) and the imports of it by its package name. The tests follow the parts too (the
 * "Tests" section): `test/<part>/` tests that part, and reaches other parts only through their index,
 * so an index names only what is used outside its part.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');
const SANDBOX = join(ROOT, 'packages/sandbox/src');
const TEST = join(ROOT, 'test');
const TOOLS = join(ROOT, 'tools');
/**
 * The folders of `test/` that test no one part, named in ARCHITECTURE.md's "Tests": they import
 * `src/` only through the parts' entries (or start `dist/` as a child process).
 */
const CROSS_CUTTING_TEST_FOLDERS: ReadonlySet<string> = new Set([
  'e2e',
  'helpers',
  'fixtures',
  'snapshots',
  'bench',
  'docs',
  'distribution',
]);
/** The files at the top of `test/`: checks of the whole tree, not of one part. */
const WHOLE_TREE_TESTS: ReadonlySet<string> = new Set(['architecture.test.ts', 'security-coverage.test.ts']);
/** The parts that are workspace packages: the name the bridge imports, and the part's folder. */
const PACKAGE_PARTS: ReadonlyMap<string, { part: string; dir: string }> = new Map([
  ['@school-mcp/sandbox', { part: 'sandbox', dir: SANDBOX }],
]);

interface Edge {
  readonly from: string;
  readonly to: string;
}

/** `part -> parts it may import`, from the "Allowed imports" table of ARCHITECTURE.md. */
export function readAllowedImports(markdown: string): Map<string, Set<string>> {
  const section = markdown.split(/^## /m).find((chunk) => chunk.startsWith('Allowed imports'));
  if (section === undefined) throw new Error('ARCHITECTURE.md has no "Allowed imports" section');
  const allowed = new Map<string, Set<string>>();
  for (const [, part, imports] of section.matchAll(/^\| `([\w-]+)` \|([^|\n]*)\|$/gm)) {
    allowed.set(part!, new Set([...imports!.matchAll(/`([\w-]+)`/g)].map((match) => match[1]!)));
  }
  return allowed;
}

/**
 * Relative module specifiers of a TypeScript file: static imports and re-exports (type-only too)
 * and dynamic `import()`. Written by hand because the TypeScript 7 package ships no parser API;
 * the source is formatted, so import clauses never contain a quote.
 */
export function importedSpecifiers(source: string): string[] {
  const patterns = [
    /^\s*(?:import|export)\s+(?:type\s+)?[^'";]*?\sfrom\s+['"]([^'"]+)['"]/gm,
    /^\s*import\s+['"]([^'"]+)['"]/gm,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  return patterns
    .flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1]!))
    .filter((specifier) => specifier.startsWith('.') || PACKAGE_PARTS.has(specifier));
}

/**
 * The names a file imports or re-exports from each module it names, static (type-only too) and
 * destructured from a dynamic `import()`; specifiers as written.
 */
export function importedNames(source: string): { specifier: string; names: string[] }[] {
  const patterns = [
    /^\s*(?:import|export)\s+(?:type\s+)?(?:\w+\s*,\s*)?\{([^{}]*)\}\s*from\s+['"]([^'"]+)['"]/gm,
    /\{([^{}]*)\}\s*=\s*await\s+import\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  return patterns.flatMap((pattern) =>
    [...source.matchAll(pattern)].map((match) => ({
      specifier: match[2]!,
      names: match[1]!
        .split(',')
        .map(
          (name) =>
            name
              .trim()
              .replace(/^type\s+/, '')
              .split(/\s+as\s+|\s*:/)[0]!,
        )
        .filter((name) => name !== ''),
    })),
  );
}

function sourceFiles(dir: string, extensions: readonly string[] = ['.ts']): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path, extensions);
    return extensions.some((extension) => entry.name.endsWith(extension)) ? [path] : [];
  });
}

/** The part a file belongs to: a workspace part's name, else its top folder under `src/`, or its own name for a root file. */
function partOf(file: string): string {
  for (const { part, dir } of PACKAGE_PARTS.values()) if (file === dir || file.startsWith(`${dir}/`)) return part;
  const [first, ...rest] = relative(SRC, file).split('/');
  return rest.length > 0 ? first! : first!.replace(/\.ts$/, '');
}

/** The file a part's neighbours may import: its `index.ts`, or the root file that is the part. */
function isEntryOf(file: string, part: string): boolean {
  const workspace = [...PACKAGE_PARTS.values()].find((entry) => entry.part === part);
  if (workspace !== undefined) return file === join(workspace.dir, 'index.ts');
  return file === join(SRC, part, 'index.ts') || file === join(SRC, `${part}.ts`);
}

function entryText(part: string): string {
  const workspace = [...PACKAGE_PARTS].find(([, entry]) => entry.part === part);
  return workspace !== undefined ? workspace[0] : `src/${part}/index.ts`;
}

function importEdges(files: readonly string[]): Edge[] {
  return files.flatMap((from) =>
    importedSpecifiers(readFileSync(from, 'utf8')).map((specifier) => ({ from, to: targetOf(from, specifier) })),
  );
}

function isPartFile(file: string): boolean {
  return file.startsWith(`${SRC}/`) || file.startsWith(`${SANDBOX}/`);
}

function targetOf(from: string, specifier: string): string {
  const workspace = PACKAGE_PARTS.get(specifier);
  return workspace !== undefined
    ? join(workspace.dir, 'index.ts')
    : resolve(dirname(from), specifier.replace(/\.js$/, '.ts'));
}

/** The import rules of the table, as messages that name the file and the rule. */
export function ruleViolations(edges: readonly Edge[], allowed: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const violations: string[] = [];
  for (const { from, to } of edges) {
    const [fromPart, toPart] = [partOf(from), partOf(to)];
    if (fromPart === toPart) continue;
    const where = `${relative(ROOT, from)} imports ${relative(ROOT, to)}`;
    const mayImport = allowed.get(fromPart);
    if (mayImport === undefined)
      violations.push(`${where}: the part "${fromPart}" is not in ARCHITECTURE.md's import table`);
    else if (!mayImport.has(toPart))
      violations.push(`${where}: "${fromPart}" may not import "${toPart}" (ARCHITECTURE.md, Allowed imports)`);
    else if (!isEntryOf(to, toPart))
      violations.push(`${where}: import "${toPart}" through ${entryText(toPart)}, not its files`);
  }
  return violations;
}

/** Where a test file may sit: the folder of a part, a cross-cutting folder, or the top for a check of the whole tree. */
function testPlacement(file: string, parts: ReadonlySet<string>): string | undefined {
  const [folder, ...rest] = relative(TEST, file).split('/');
  const where = relative(ROOT, file);
  if (rest.length === 0)
    return WHOLE_TREE_TESTS.has(folder!)
      ? undefined
      : `${where}: a test of one part goes in test/<part>/ (ARCHITECTURE.md, Tests)`;
  if (CROSS_CUTTING_TEST_FOLDERS.has(folder!) || parts.has(folder!)) return undefined;
  return `${where}: test/${folder} is neither a part of src/ nor a cross-cutting test folder (ARCHITECTURE.md, Tests)`;
}

/**
 * The rule of the tests, as messages that name the test file and the import: a file under
 * `test/<part>/` may import its own part's files, and every other part only through its entry; a
 * cross-cutting folder imports every part through its entry; the top of `test/` holds only the
 * checks of the whole tree.
 */
export function testRuleViolations(
  files: readonly string[],
  edges: readonly Edge[],
  parts: ReadonlySet<string>,
): string[] {
  const misplaced = new Map(
    files.flatMap((file) => {
      const violation = testPlacement(file, parts);
      return violation === undefined ? [] : [[file, violation] as const];
    }),
  );
  const violations = [...misplaced.values()];
  for (const { from, to } of edges) {
    if (misplaced.has(from) || !isPartFile(to)) continue;
    const [folder] = relative(TEST, from).split('/');
    const toPart = partOf(to);
    if (toPart === folder || isEntryOf(to, toPart)) continue;
    const tester = parts.has(folder!) ? `a test of "${folder}"` : `test/${folder} tests no one part, so it`;
    violations.push(
      `${relative(ROOT, from)} imports ${relative(ROOT, to)}: ${tester} imports "${toPart}" through ${entryText(toPart)}, not its files`,
    );
  }
  return violations;
}

/**
 * The names of a part's `index.ts` that nothing outside the part uses (no other part, no tool, no
 * test of another part or of no one part): its own tests import its files instead. `exported`:
 * each index's names; `imports`: what each file imports by name, resolved to files.
 */
export function ownTestOnlyExports(
  exported: ReadonlyMap<string, readonly string[]>,
  imports: readonly { from: string; to: string; names: readonly string[] }[],
): string[] {
  const usedOutside = new Set<string>();
  for (const { from, to, names } of imports) {
    if (!exported.has(to)) continue;
    const part = partOf(to);
    if (from.startsWith(join(SRC, part, '/')) || from.startsWith(join(TEST, part, '/'))) continue;
    for (const name of names) usedOutside.add(`${to}#${name}`);
  }
  return [...exported].flatMap(([index, names]) =>
    names
      .filter((name) => !usedOutside.has(`${index}#${name}`))
      .map(
        (name) =>
          `${relative(ROOT, index)} exports ${name}, which nothing outside "${partOf(index)}" uses: its tests import it from its file`,
      ),
  );
}

/** Every cycle's files, found by depth-first search over the file graph. */
export function importCycles(edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const target of next.get(file) ?? []) {
      if (state.get(target) === 'open') cycles.push([...stack.slice(stack.indexOf(target)), target]);
      else if (state.get(target) === undefined) visit(target);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of next.keys()) if (state.get(file) === undefined) visit(file);
  return cycles;
}

describe('architecture', () => {
  const allowed = readAllowedImports(readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8'));
  const partFiles = [...sourceFiles(SRC), ...sourceFiles(SANDBOX)];
  const edges = importEdges(partFiles);
  const parts = new Set(partFiles.map(partOf));

  it('names only files that exist in ARCHITECTURE.md, so its walks and paragraphs follow the code', () => {
    const text = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');
    const named = [...new Set([...text.matchAll(/`([a-z0-9/-]+\.ts)`/g)].map((match) => match[1]!))];
    expect(named.length).toBeGreaterThan(40);
    const known = [...partFiles, ...sourceFiles(TEST), ...sourceFiles(TOOLS)].map((file) => relative(ROOT, file));
    const exists = (path: string) =>
      known.some((file) => file === path || file.endsWith(`/${path}`) || file === `src/${path}`);
    expect(named.filter((path) => !exists(path))).toEqual([]);
  });

  it('lists every part of src/ in the import table', () => {
    expect([...parts].filter((part) => !allowed.has(part))).toEqual([]);
  });

  it('keeps each test in the folder of the part it tests, reaching other parts through their index', () => {
    const testFiles = sourceFiles(TEST, ['.ts', '.mts', '.mjs']);
    const testEdges = importEdges(testFiles);
    expect(testEdges.filter(({ to }) => isPartFile(to)).length).toBeGreaterThan(300);
    expect(testRuleViolations(testFiles, testEdges, parts)).toEqual([]);
  });

  it("keeps each part's index to what is used outside the part", () => {
    const indexes = partFiles.filter((file) => file.startsWith(`${SRC}/`) && file.endsWith('/index.ts'));
    const exported = new Map(
      indexes.map((index) => [index, importedNames(readFileSync(index, 'utf8')).flatMap(({ names }) => names)]),
    );
    const importers = [...partFiles, ...sourceFiles(TOOLS), ...sourceFiles(TEST, ['.ts', '.mts', '.mjs'])];
    const imports = importers.flatMap((from) =>
      importedNames(readFileSync(from, 'utf8'))
        .filter(({ specifier }) => specifier.startsWith('.'))
        .map(({ specifier, names }) => ({ from, to: targetOf(from, specifier), names })),
    );
    expect([...exported.values()].flat().length).toBeGreaterThan(150);
    expect(ownTestOnlyExports(exported, imports)).toEqual([]);
  });

  it('keeps every import between parts to the table, through the part index', () => {
    expect(edges.length).toBeGreaterThan(300);
    expect(ruleViolations(edges, allowed)).toEqual([]);
  });

  it('has no import cycle between files, type-only imports included', () => {
    expect(importCycles(edges).map((cycle) => cycle.map((file) => relative(ROOT, file)).join(' -> '))).toEqual([]);
  });

  describe('the checks themselves', () => {
    const file = (path: string) => join(SRC, path);

    it('read imports of every form', () => {
      const source = [
        "import { a } from './a.js';",
        "import type { B } from '../b/index.js';",
        'import {\n  c,\n  type D,\n} from "./c.js";',
        "export { e } from './e.js';",
        "export * from './f.js';",
        "import './side-effect.js';",
        "const lazy = await import('./lazy.js');",
        "import { readFile } from 'node:fs/promises';",
        "const school = await import('@school-mcp/sandbox');",
      ].join('\n');
      expect(importedSpecifiers(source).sort()).toEqual([
        '../b/index.js',
        './a.js',
        './c.js',
        './e.js',
        './f.js',
        './lazy.js',
        './side-effect.js',
        '@school-mcp/sandbox',
      ]);
    });

    it('count the sandbox package as the part sandbox: nothing of the bridge for it, and only through its index', () => {
      const table = new Map([
        ['sandbox', new Set<string>()],
        ['app', new Set(['sandbox'])],
        ['oauth', new Set(['errors'])],
      ]);
      expect(
        ruleViolations(
          [
            { from: join(SANDBOX, 'auth/pkce.ts'), to: file('errors.ts') },
            { from: file('app/demo-school.ts'), to: join(SANDBOX, 'index.ts') },
            { from: file('app/demo-school.ts'), to: join(SANDBOX, 'scopes.ts') },
            { from: file('oauth/scopes.ts'), to: join(SANDBOX, 'index.ts') },
            { from: join(SANDBOX, 'api/index.ts'), to: join(SANDBOX, 'scopes.ts') },
          ],
          table,
        ),
      ).toEqual([
        'packages/sandbox/src/auth/pkce.ts imports src/errors.ts: "sandbox" may not import "errors" (ARCHITECTURE.md, Allowed imports)',
        'src/app/demo-school.ts imports packages/sandbox/src/scopes.ts: import "sandbox" through @school-mcp/sandbox, not its files',
        'src/oauth/scopes.ts imports packages/sandbox/src/index.ts: "oauth" may not import "sandbox" (ARCHITECTURE.md, Allowed imports)',
      ]);
    });

    it('name the file and the rule for a forbidden part, a reach into files, and an unknown part', () => {
      const table = new Map([
        ['oauth', new Set(['errors'])],
        ['server', new Set(['openapi'])],
      ]);
      expect(
        ruleViolations(
          [
            { from: file('oauth/scopes.ts'), to: file('openapi/index.ts') },
            { from: file('server/tools.ts'), to: file('openapi/operations.ts') },
            { from: file('extra/thing.ts'), to: file('errors.ts') },
            { from: file('oauth/scopes.ts'), to: file('errors.ts') },
          ],
          table,
        ),
      ).toEqual([
        'src/oauth/scopes.ts imports src/openapi/index.ts: "oauth" may not import "openapi" (ARCHITECTURE.md, Allowed imports)',
        'src/server/tools.ts imports src/openapi/operations.ts: import "openapi" through src/openapi/index.ts, not its files',
        'src/extra/thing.ts imports src/errors.ts: the part "extra" is not in ARCHITECTURE.md\'s import table',
      ]);
    });

    it("hold a test to its own part, and a cross-cutting one to the parts' entries", () => {
      const test = (path: string) => join(TEST, path);
      const parts = new Set(['oauth', 'consent', 'log', 'sandbox']);
      const files = ['oauth/discovery.test.ts', 'log.test.ts', 'misc/thing.test.ts', 'architecture.test.ts'];
      expect(
        testRuleViolations(
          files.map(test),
          [
            { from: test('oauth/discovery.test.ts'), to: file('oauth/discovery.ts') },
            { from: test('oauth/discovery.test.ts'), to: file('log.ts') },
            { from: test('oauth/discovery.test.ts'), to: file('consent/index.ts') },
            { from: test('oauth/discovery.test.ts'), to: join(SANDBOX, 'index.ts') },
            { from: test('oauth/discovery.test.ts'), to: test('helpers/free-port.ts') },
            { from: test('consent/policy.test.ts'), to: file('oauth/token-store.ts') },
            { from: test('sandbox/pkce.test.ts'), to: join(SANDBOX, 'auth/pkce.ts') },
            { from: test('e2e/sign-in.test.ts'), to: file('oauth/index.ts') },
            { from: test('e2e/sign-in.test.ts'), to: file('oauth/discovery.ts') },
            { from: test('bench/parts.test.ts'), to: join(SANDBOX, 'school-user.ts') },
            { from: test('log.test.ts'), to: file('log.ts') },
            { from: test('misc/thing.test.ts'), to: file('log.ts') },
            { from: test('architecture.test.ts'), to: join(SANDBOX, 'index.ts') },
          ],
          parts,
        ),
      ).toEqual([
        'test/log.test.ts: a test of one part goes in test/<part>/ (ARCHITECTURE.md, Tests)',
        'test/misc/thing.test.ts: test/misc is neither a part of src/ nor a cross-cutting test folder (ARCHITECTURE.md, Tests)',
        'test/consent/policy.test.ts imports src/oauth/token-store.ts: a test of "consent" imports "oauth" through src/oauth/index.ts, not its files',
        'test/e2e/sign-in.test.ts imports src/oauth/discovery.ts: test/e2e tests no one part, so it imports "oauth" through src/oauth/index.ts, not its files',
        'test/bench/parts.test.ts imports packages/sandbox/src/school-user.ts: test/bench tests no one part, so it imports "sandbox" through @school-mcp/sandbox, not its files',
      ]);
    });

    it('read the names of imports, re-exports and destructured dynamic imports', () => {
      const source = [
        "import { a, type B, c as d } from './x/index.js';",
        "export type { E } from './e.js';",
        'import {\n  f,\n  g,\n} from "./g.js";',
        "async function k() {\n  const { h, i: j } = await import('./h.js');\n}",
        "import './side-effect.js';",
      ].join('\n');
      expect(importedNames(source)).toEqual([
        { specifier: './x/index.js', names: ['a', 'B', 'c'] },
        { specifier: './e.js', names: ['E'] },
        { specifier: './g.js', names: ['f', 'g'] },
        { specifier: './h.js', names: ['h', 'i'] },
      ]);
    });

    it("name an index export that only the part's own tests use", () => {
      const index = file('oauth/index.ts');
      const exported = new Map([[index, ['createOAuthClient', 'parseScope', 'storeFileName', 'unused']]]);
      expect(
        ownTestOnlyExports(exported, [
          { from: file('consent/sign-in-session.ts'), to: index, names: ['createOAuthClient'] },
          { from: file('oauth/oauth-client.ts'), to: index, names: ['unused'] },
          { from: join(TEST, 'oauth/scopes.test.ts'), to: index, names: ['parseScope'] },
          { from: join(TEST, 'e2e/reconsent.test.ts'), to: index, names: ['storeFileName'] },
        ]),
      ).toEqual([
        'src/oauth/index.ts exports parseScope, which nothing outside "oauth" uses: its tests import it from its file',
        'src/oauth/index.ts exports unused, which nothing outside "oauth" uses: its tests import it from its file',
      ]);
    });

    it('find a cycle through type-only imports', () => {
      const cycles = importCycles([
        { from: file('server/a.ts'), to: file('server/b.ts') },
        { from: file('server/b.ts'), to: file('server/c.ts') },
        { from: file('server/c.ts'), to: file('server/a.ts') },
        { from: file('server/c.ts'), to: file('server/d.ts') },
      ]);
      expect(cycles.map((cycle) => cycle.map((path) => relative(SRC, path)))).toEqual([
        ['server/a.ts', 'server/b.ts', 'server/c.ts', 'server/a.ts'],
      ]);
    });
  });
});
