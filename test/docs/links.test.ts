/**
 * The README and docs/ link to each other by relative paths and heading anchors; a page renamed or
 * a heading reworded must not leave a link that leads nowhere.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, normalize, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replaceAll(' ', '-');
}

function withoutCode(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '');
}

/** Every relative link of `page` (a path under the repository) that leads to no file or no heading. */
function brokenLinks(page: string, text: string, read: (path: string) => string | undefined): string[] {
  const broken: string[] = [];
  for (const match of withoutCode(text).matchAll(/\]\(([^)\s]+)\)/g)) {
    const link = match[1]!;
    if (/^[a-z]+:/.test(link)) continue;
    const [path, anchor] = link.split('#');
    const target = path === '' ? page : normalize(join(dirname(page), path!));
    const body = read(target);
    if (body === undefined) broken.push(`${page}: ${link} (no such file)`);
    else if (anchor !== undefined && target.endsWith('.md')) {
      const anchors = [...withoutCode(body).matchAll(/^#+ (.*)$/gm)].map((heading) => anchorOf(heading[1]!));
      if (!anchors.includes(anchor)) broken.push(`${page}: ${link} (no such heading)`);
    }
  }
  return broken;
}

describe('the links of the README and docs/', () => {
  it('lead to a file, and to a heading of it', async () => {
    const pages = [
      'README.md',
      ...(await readdir(join(root, 'docs'), { recursive: true }))
        .filter((name) => name.endsWith('.md'))
        .map((name) => join('docs', name)),
    ];
    const texts = new Map(
      await Promise.all(pages.map(async (page) => [page, await readFile(join(root, page), 'utf8')] as const)),
    );
    // Pages outside docs/ (SECURITY.md, ARCHITECTURE.md) are read for their headings too; other files only need to exist.
    const read = (path: string) => {
      if (texts.has(path)) return texts.get(path);
      if (!existsSync(join(root, path))) return undefined;
      return path.endsWith('.md') ? readFileSync(join(root, path), 'utf8') : '';
    };
    expect(pages.flatMap((page) => brokenLinks(page, texts.get(page)!, read))).toEqual([]);
  });

  it('reports a missing file and a missing heading', () => {
    const pages = new Map([['docs/a.md', '# A\n\n## Two words\n']]);
    const text = '[ok](a.md#two-words) [gone](b.md) [nowhere](a.md#three) [web](https://example.com) [self](#b)';
    expect(brokenLinks('docs/a.md', text, (path) => pages.get(path))).toEqual([
      'docs/a.md: b.md (no such file)',
      'docs/a.md: a.md#three (no such heading)',
      'docs/a.md: #b (no such heading)',
    ]);
  });
});
