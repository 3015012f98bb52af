/** The server's own tools: who is signed in, and signing out. */
import type { McpServer } from '@modelcontextprotocol/server';
import { isSchoolMcpError } from '../errors.js';
import type { AccountService } from './account.js';
import { lazyJsonSchema } from './lazy-json-schema.js';
import { storeOutageResult } from './store-outage-result.js';
import { whoAmIText } from './who-am-i-text.js';

export const WHO_AM_I_TOOL = 'who_am_i';
export const SIGN_OUT_TOOL = 'sign_out';

const noInput = lazyJsonSchema({ type: 'object', properties: {}, additionalProperties: false });

export function registerAccountTools(server: McpServer, account: AccountService): void {
  server.registerTool(
    WHO_AM_I_TOOL,
    {
      title: 'Who am I',
      description:
        'Shows which school and user this server is signed in as, the permissions (scopes) granted so far, and when the access expires. Does not start a sign-in.',
      inputSchema: noInput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    },
    async () => {
      try {
        const status = await account.status();
        const structured = {
          signedIn: status.signedIn,
          school: status.issuer,
          user: status.user ?? null,
          scopes: [...status.scopes],
          expiresAt: status.expiresAt === undefined ? null : new Date(status.expiresAt).toISOString(),
        };
        const text = whoAmIText(status);
        return { content: [{ type: 'text', text }], structuredContent: structured };
      } catch (error) {
        return failure(error, WHO_AM_I_TOOL, 'The sign-in status could not be read');
      }
    },
  );

  server.registerTool(
    SIGN_OUT_TOOL,
    {
      title: 'Sign out',
      description:
        "Revokes this server's access to the school and forgets its tokens. The next call that needs access asks the user to sign in again.",
      inputSchema: noInput,
      annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    async () => {
      try {
        const outcome = await account.signOut();
        return { content: [{ type: 'text', text: outcome.message }], structuredContent: { revoked: outcome.revoked } };
      } catch (error) {
        return failure(error, SIGN_OUT_TOOL, 'Signing out failed');
      }
    },
  );
}

function failure(error: unknown, toolName: string, what: string) {
  // A store outage in hosted mode reads to the agent as any other tool's does, not as the operator's hint.
  if (isSchoolMcpError(error) && error.code === 'STORE_UNAVAILABLE') return storeOutageResult(toolName);
  const detail = isSchoolMcpError(error)
    ? `${error.code}: ${error.message}${error.hint ? ` ${error.hint}` : ''}`
    : 'an unexpected error';
  return { isError: true, content: [{ type: 'text' as const, text: `${what}: ${detail}` }] };
}
