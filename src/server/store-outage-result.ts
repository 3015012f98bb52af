/**
 * The result of a tool call that could not read the person's grant because hosted mode's store
 * was away for a moment. Nothing ran at the school (the grant is read before any request), so the
 * agent is told to call again shortly, in a tool result it can act on rather than a protocol
 * error or the operator's hint about starting the store.
 * @see SECURITY.md SCL-05
 */
import type { CallToolResult } from '@modelcontextprotocol/server';

/** Pure: the result the agent gets instead of the call's. */
export function storeOutageResult(toolName: string): CallToolResult {
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text:
          `${toolName} failed (STORE_UNAVAILABLE).\n` +
          "school-mcp could not reach its grant store for a moment, so it could not use the user's sign-in; the call did not run at the school.\n" +
          `Next step: call ${toolName} again in a few seconds; if it fails the same way for more than a minute, tell the user that school-mcp is having trouble.`,
      },
    ],
  };
}
