import { describe, expect, it } from 'vitest';
import { claudeAddCommands, httpTarget, jsonEntries, runnable } from './host-config-blocks.js';

const page = [
  'Text.',
  '```json',
  '{ "mcpServers": { "a": { "command": "node", "args": ["/abs/path/to/school-mcp/dist/bin/school-mcp.js", "--school", "https://your-school.example"] },',
  '  "b": { "type": "http", "url": "http://127.0.0.1:8765/mcp", "headers": { "Authorization": "Bearer ${SCHOOL_MCP_HTTP_SECRET}" } } } }',
  '```',
  '```json',
  '{ "inputs": [], "servers": { "c": { "type": "stdio", "command": "node", "args": ["x.js"] } } }',
  '```',
  '```json',
  '{ "mcpServers": { "d": { "serverUrl": "http://127.0.0.1:8765/mcp", "headers": { "Authorization": "Bearer ${env:SCHOOL_MCP_HTTP_SECRET}" } } } }',
  '```',
  '```sh',
  'claude mcp add school -- node /abs/path/to/school-mcp/dist/bin/school-mcp.js --demo   # a comment',
  'claude mcp list',
  '```',
].join('\n');

describe('the host configs of a documentation page', () => {
  it('reads the entries under mcpServers and servers, stdio and HTTP (url or serverUrl)', () => {
    expect(jsonEntries(page).map((entry) => `${entry.kind}:${entry.name}`)).toEqual([
      'stdio:a',
      'http:b',
      'stdio:c',
      'http:d',
    ]);
  });

  it('reads `claude mcp add` lines without their comment', () => {
    expect(claudeAddCommands(page)).toEqual([
      {
        kind: 'stdio',
        name: 'school',
        command: 'node',
        args: ['/abs/path/to/school-mcp/dist/bin/school-mcp.js', '--demo'],
      },
    ]);
  });

  it('refuses a JSON block that does not parse', () => {
    expect(() => jsonEntries('```json\n{ "mcpServers": { "a": } }\n```\n')).toThrow(SyntaxError);
  });

  it('puts the clone and the school in place of the placeholders', () => {
    const [entry] = jsonEntries(page);
    expect(runnable(entry!, { clone: '/repo', school: 'http://127.0.0.1:4000' })).toMatchObject({
      args: ['/repo/dist/bin/school-mcp.js', '--school', 'http://127.0.0.1:4000'],
    });
  });

  it("aims an HTTP entry at the listening port and fills in the host's variable", () => {
    const entries = jsonEntries(page).filter((entry) => entry.kind === 'http');
    for (const entry of entries) {
      expect(httpTarget(entry, 'http://127.0.0.1:40123/mcp', 's3cret')).toEqual({
        url: 'http://127.0.0.1:40123/mcp',
        headers: { Authorization: 'Bearer s3cret' },
      });
    }
    expect(
      httpTarget(
        {
          kind: 'http',
          name: 'v',
          url: 'http://127.0.0.1:8765/mcp',
          headers: { Authorization: 'Bearer ${input:school-secret}' },
        },
        'http://127.0.0.1:1/mcp',
        'k',
      ).headers,
    ).toEqual({ Authorization: 'Bearer k' });
  });
});
