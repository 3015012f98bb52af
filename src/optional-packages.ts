/**
 * The packages a plain install of school-mcp leaves out, because a stdio or `--http` user never
 * loads them: hosted mode's authorization server and Redis client, and the Swagger 2.0 converter.
 * package.json lists them as optional peer dependencies at these versions
 * (test/optional-packages/optional-packages.test.ts holds the two together). A feature that needs one and finds it
 * missing fails with `OPTIONAL_PACKAGE_MISSING`, whose hint is the one command that installs them
 * where this copy of school-mcp can load them.
 */
import { SchoolMcpError } from './errors.js';

export type OptionalFeature = 'hosted' | 'swagger';

interface FeaturePackages {
  /** What the user asked for, as the message names it. */
  readonly feature: string;
  /** `name@version`, pinned as package.json's peerDependencies pin them. */
  readonly packages: readonly string[];
}

export const OPTIONAL_PACKAGES: Readonly<Record<OptionalFeature, FeaturePackages>> = {
  hosted: {
    feature: 'Hosted mode (--hosted and the store commands)',
    packages: ['oidc-provider@8.8.1', '@redis/client@5.10.0'],
  },
  swagger: { feature: 'A Swagger 2.0 document', packages: ['swagger2openapi@7.0.8'] },
};

/** How this copy was installed, from where its own file lies: npx's cache, a global prefix, or a project. */
export type InstallKind = 'npx' | 'global' | 'project';

/** Pure: the install kind of a copy whose running file is at `path` (`/` or `\` separators). */
export function installKindOf(path: string): InstallKind {
  const normalised = path.replaceAll('\\', '/');
  if (/\/_npx\/[^/]+\/node_modules\/school-mcp\//.test(normalised)) return 'npx';
  // npm's global folder: {prefix}/lib/node_modules on POSIX, %APPDATA%\npm\node_modules on Windows.
  if (/\/lib\/node_modules\/school-mcp\//.test(normalised) || /\/npm\/node_modules\/school-mcp\//i.test(normalised))
    return 'global';
  return 'project';
}

function nameOf(spec: string): string {
  return spec.slice(0, spec.lastIndexOf('@'));
}

/** Pure: the one command that installs `feature`'s packages where a copy of this kind loads them. */
export function installCommand(feature: OptionalFeature, kind: InstallKind): string {
  const packages = OPTIONAL_PACKAGES[feature].packages;
  if (kind === 'npx') return `npx -y ${['school-mcp', ...packages].map((spec) => `-p ${spec}`).join(' ')} school-mcp …`;
  return `npm install ${kind === 'global' ? '--global ' : ''}${packages.join(' ')}`;
}

/**
 * Pure: the optional package of `feature` that `error` says Node could not find, or undefined
 * when the error is another one (a package of theirs missing, a failure inside them).
 */
export function missingOptionalPackage(error: unknown, feature: OptionalFeature): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return undefined;
  // import(): "Cannot find package 'oidc-provider' imported from …"; require(): "Cannot find module 'swagger2openapi'".
  const named = /Cannot find (?:package|module) '([^']+)'/.exec(error.message)?.[1];
  return OPTIONAL_PACKAGES[feature].packages.map(nameOf).find((name) => name === named);
}

/** The coded error for `feature` when `error` is its package missing; otherwise `error` itself. */
export function optionalPackageError(error: unknown, feature: OptionalFeature, runningFile: string): unknown {
  const missing = missingOptionalPackage(error, feature);
  if (missing === undefined) return error;
  const { feature: what, packages } = OPTIONAL_PACKAGES[feature];
  return new SchoolMcpError(
    'OPTIONAL_PACKAGE_MISSING',
    `${what} needs ${packages.map(nameOf).join(' and ')}, which a plain install of school-mcp leaves out (${missing} is not installed).`,
    {
      hint: `install ${packages.length > 1 ? 'them' : 'it'} beside school-mcp: ${installCommand(feature, installKindOf(runningFile))}`,
      cause: error,
    },
  );
}

/** `require(name)` of an optional package, its absence turned into `OPTIONAL_PACKAGE_MISSING`. */
export function requireOptional(require: NodeJS.Require, name: string, feature: OptionalFeature): unknown {
  try {
    return require(name);
  } catch (error) {
    // The first folder it searches is `node_modules` beside the requiring file, which tells how this copy was installed.
    throw optionalPackageError(error, feature, require.resolve.paths(name)?.[0] ?? '');
  }
}
