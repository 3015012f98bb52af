/**
 * What the bundle is made from, checked before anything is built: the manifest must describe this
 * package (same name and version), start the file package.json names as its bin, and take the
 * school from the user's configuration.
 */

export interface BundleManifest {
  readonly name: string;
  readonly version: string;
  readonly server: {
    readonly type: string;
    readonly entry_point: string;
    readonly mcp_config: {
      readonly command: string;
      readonly args?: readonly string[];
      readonly env?: Readonly<Record<string, string>>;
    };
  };
  readonly user_config?: Readonly<Record<string, { readonly required?: boolean }>>;
}

export interface BundlePackage {
  readonly name: string;
  readonly version: string;
  readonly bin: Readonly<Record<string, string>> | string;
}

const DIRNAME = '${__dirname}';

/** Pure: every way the manifest disagrees with the package, as sentences; empty when it fits. */
export function bundleInputProblems(manifest: BundleManifest, packageJson: BundlePackage): string[] {
  const problems: string[] = [];
  if (manifest.name !== packageJson.name)
    problems.push(`manifest.json name ${manifest.name} is not the package name ${packageJson.name}`);
  if (manifest.version !== packageJson.version)
    problems.push(`manifest.json version ${manifest.version} is not package.json's ${packageJson.version}`);
  const bin = typeof packageJson.bin === 'string' ? packageJson.bin : packageJson.bin[packageJson.name];
  if (bin === undefined || normalize(manifest.server.entry_point) !== normalize(bin)) {
    problems.push(
      `manifest.json entry_point ${manifest.server.entry_point} is not the package's bin ${bin ?? '(none)'}`,
    );
  }
  if (manifest.server.type !== 'node') problems.push(`manifest.json server.type is ${manifest.server.type}, not node`);
  const args = manifest.server.mcp_config.args ?? [];
  if (args[0] !== `${DIRNAME}/${normalize(manifest.server.entry_point)}`) {
    problems.push(
      `mcp_config.args must start with ${DIRNAME}/${normalize(manifest.server.entry_point)}, so the host runs the bundled file`,
    );
  }
  const referenced = [...args, ...Object.values(manifest.server.mcp_config.env ?? {})].flatMap((value) =>
    [...value.matchAll(/\$\{user_config\.([^}]+)\}/g)].map((match) => match[1]!),
  );
  for (const key of referenced) {
    if (!manifest.user_config?.[key])
      problems.push(`mcp_config uses user_config.${key}, which user_config does not declare`);
  }
  return problems;
}

/** Pure: the archive's file name, e.g. `school-mcp-0.1.0.mcpb`. */
export function bundleFileName(manifest: Pick<BundleManifest, 'name' | 'version'>): string {
  return `${manifest.name}-${manifest.version}.mcpb`;
}

function normalize(path: string): string {
  return path.replace(/^\.\//, '');
}

type JsonObject = Record<string, unknown>;

function withoutKey(record: unknown, key: string): JsonObject | undefined {
  if (typeof record !== 'object' || record === null) return undefined;
  const { [key]: _dropped, ...rest } = record as JsonObject;
  return rest;
}

function movedToDependencies(manifest: JsonObject, name: string): JsonObject {
  const peers = (manifest['peerDependencies'] ?? {}) as Record<string, string>;
  const version = peers[name];
  if (version === undefined) throw new Error(`${name} is not an optional peer dependency of package.json`);
  const moved: JsonObject = {
    ...manifest,
    dependencies: { ...((manifest['dependencies'] ?? {}) as JsonObject), [name]: version },
  };
  for (const field of ['peerDependencies', 'peerDependenciesMeta', 'devDependencies']) {
    const rest = withoutKey(manifest[field], name);
    if (rest !== undefined) moved[field] = rest;
  }
  return moved;
}

/**
 * Pure: package.json and package-lock.json for the bundle, with the optional peer dependencies
 * `carried` made plain dependencies in both (at the version package.json pins), so that
 * `npm ci --omit=dev` installs them from the lock. A host that runs the bundle has no terminal to
 * install a missing one, so what a stdio start may load travels inside (the Swagger 2.0 converter);
 * hosted mode's packages do not.
 */
export function carryOptionalPeers(
  packageJson: JsonObject,
  lock: JsonObject,
  carried: readonly string[],
): { packageJson: JsonObject; lock: JsonObject } {
  let manifest = packageJson;
  const packages = (lock['packages'] ?? {}) as Record<string, JsonObject>;
  let rootEntry = packages[''] ?? {};
  for (const name of carried) {
    manifest = movedToDependencies(manifest, name);
    rootEntry = movedToDependencies(rootEntry, name);
  }
  return { packageJson: manifest, lock: { ...lock, packages: { ...packages, '': rootEntry } } };
}
