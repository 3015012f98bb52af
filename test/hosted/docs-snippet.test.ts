/**
 * docs/hosted.md's web client snippet is what a client needs and no more: the MCP endpoint of the
 * public URL. The end-to-end suites connect the SDK client to exactly that shape
 * (`{public-url}/mcp`, nothing else configured).
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePublicUrl } from '../../src/hosted/index.js';

describe('docs/hosted.md', () => {
  it("gives a web client config that names only the public URL's /mcp", async () => {
    const page = await readFile(resolve(import.meta.dirname, '../../docs/hosted.md'), 'utf8');
    const snippet = /```json\n([\s\S]*?)```/.exec(page)?.[1];
    const config = JSON.parse(snippet!) as { mcpServers: Record<string, Record<string, unknown>> };
    const [server] = Object.values(config.mcpServers);
    expect(Object.keys(server!)).toEqual(['url']);
    const publicUrl = /--public-url (\S+)/.exec(page)?.[1];
    const parsed = parsePublicUrl(publicUrl!);
    expect(parsed.ok && parsed.url.mcpUrl).toBe(server!.url);
  });
});
