/**
 * The notice that ships beside the bin for the packages written into it (`INLINED_PACKAGES` and
 * what they import): each one's name, version, licence and licence text, as the MIT and Apache-2.0
 * licences ask of a copy. Built from the modules the bundle actually holds, so a package that
 * enters or leaves the bundle enters or leaves the notice with it.
 */
import { sep } from 'node:path';

export interface InlinedPackage {
  readonly name: string;
  readonly version: string;
  readonly license: string;
  /** The package's own licence file, or undefined when it ships none. */
  readonly licenceText: string | undefined;
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

/** Pure: the notice's text. */
export function buildLicenceNotice(packages: readonly InlinedPackage[]): string {
  const sections = [...packages]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((entry) => {
      const text = entry.licenceText?.trim() ?? `The package ships no licence file; its package.json names the licence ${entry.license}.`;
      return `## ${entry.name} ${entry.version} (${entry.license})\n\n\`\`\`text\n${text}\n\`\`\`\n`;
    });
  return (
    '# Packages inside the school-mcp bin\n\n' +
    'The bin (`school-mcp.js` and its chunks) holds the code of the packages below, written in when it was built, under their own licences.\n\n' +
    sections.join('\n')
  );
}
