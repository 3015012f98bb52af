/** What `school-mcp --hosted --demo` prints once it listens. */

/** Pure: what the demo prints, so a person can walk through it with an MCP client of their own. */
export function demoWalkthrough(publicBase: string, schoolUrl: string): string {
  return [
    'school-mcp hosted demo',
    `  MCP endpoint:     ${publicBase}/mcp`,
    `  sandbox school:   ${schoolUrl}`,
    '  1. Add the MCP endpoint to an MCP client that supports OAuth (remote server, no API key).',
    "  2. The client registers itself and opens school-mcp's consent page: check its name, then Allow.",
    '  3. At the sandbox school pick a staff member (Ada, Grace or Alan) and Allow.',
    '  4. Ask the client "who am I?": who_am_i answers as the person you picked.',
    '  5. Connect a second client, or a private browser window, as someone else: each sees only themselves.',
    'press Ctrl+C to stop; the demo store and key are thrown away',
    '',
  ].join('\n');
}
