/**
 * The notice that ships beside the bin for the packages written into it (`INLINED_PACKAGES` and
 * what they import, and what their own builds already hold, such as the SDK's ajv): each one's
 * name, version, licence and licence text, as the MIT, BSD and Apache-2.0 licences ask of a copy.
 * Built from the modules the bundle renders and their source maps, so a package that enters or
 * leaves the bundle enters or leaves the notice with it.
 */
import { sep } from 'node:path';

export interface InlinedPackage {
  readonly name: string;
  readonly version: string;
  readonly license: string;
  /** The package's own licence file, or undefined when it ships none. */
  readonly licenceText: string | undefined;
  /** For a package another one's build holds: which package, and the version whose licence text is given. */
  readonly heldBy?: { readonly name: string; readonly textFromVersion: string };
}

/** Pure: the root folders of the packages that modules under node_modules belong to, each once, sorted. */
export function packageRootsOf(moduleIds: readonly string[]): string[] {
  const marker = `${sep}node_modules${sep}`;
  const roots = new Set<string>();
  for (const id of moduleIds) {
    const at = id.lastIndexOf(marker);
    if (at < 0) continue;
    const rest = id.slice(at + marker.length).split(sep);
    const nameParts = rest[0]?.startsWith('@') ? 2 : 1;
    if (rest.length <= nameParts) continue;
    roots.add(id.slice(0, at + marker.length) + rest.slice(0, nameParts).join(sep));
  }
  return [...roots].sort();
}

/**
 * Pure: the packages a prebuilt file holds, from its source map's `sources` (URL paths, `/`):
 * `…/node_modules/.pnpm/ajv@8.18.0/node_modules/ajv/dist/core.js` is ajv 8.18.0; a path without
 * the store's `name@version` folder gives the name alone. Each once, sorted by name.
 */
export function heldPackagesOf(sources: readonly string[]): { name: string; version: string | undefined }[] {
  const held = new Map<string, string | undefined>();
  for (const source of sources) {
    const at = source.lastIndexOf('node_modules/');
    if (at < 0) continue;
    const rest = source.slice(at + 'node_modules/'.length).split('/');
    const nameParts = rest[0]?.startsWith('@') ? 2 : 1;
    if (rest.length <= nameParts) continue;
    const name = rest.slice(0, nameParts).join('/');
    const store = /\.pnpm\/((?:@[^/+]+\+)?[^/@]+)@([^/_]+)[^/]*\/node_modules\/$/.exec(
      source.slice(0, at + 'node_modules/'.length),
    );
    const version = store && store[1]!.replace('+', '/') === name ? store[2] : undefined;
    if (!held.has(name) || held.get(name) === undefined) held.set(name, version);
  }
  return [...held].map(([name, version]) => ({ name, version })).sort((a, b) => a.name.localeCompare(b.name));
}

/** Pure: the notice's text. */
export function buildLicenceNotice(packages: readonly InlinedPackage[]): string {
  const sections = [...packages]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((entry) => {
      const text =
        entry.licenceText?.trim() ??
        `The package ships no licence file; its package.json names the licence ${entry.license}.`;
      const held = entry.heldBy
        ? `Held inside ${entry.heldBy.name}'s own build${entry.heldBy.textFromVersion === entry.version ? '' : `; the licence text is that of its version ${entry.heldBy.textFromVersion}`}.\n\n`
        : '';
      return `## ${entry.name} ${entry.version} (${entry.license})\n\n${held}\`\`\`text\n${text}\n\`\`\`\n`;
    });
  return (
    '# Packages inside the school-mcp bin\n\n' +
    'The bin (`school-mcp.js` and its chunks) holds the code of the packages below, written in when it was built, under their own licences.\n\n' +
    sections.join('\n')
  );
}
