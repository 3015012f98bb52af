import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { SchoolMcpError } from '../../src/errors.js';
import { registerAccountTools } from '../../src/server/account-tools.js';
import type { AccountService } from '../../src/server/account.js';

type Result = { isError?: boolean; content: { type: string; text?: string }[] };

const textOf = (result: Result) => result.content.map((block) => block.text ?? '').join('\n');

let close: (() => Promise<void>) | undefined;

afterEach(async () => {
  await close?.();
  close = undefined;
});

async function connectedTo(account: AccountService): Promise<Client> {
  const server = new McpServer({ name: 'account-tools-test', version: '0' });
  registerAccountTools(server, account);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '0' });
  await server.connect(serverSide);
  await client.connect(clientSide);
  close = async () => {
    await client.close();
    await server.close();
  };
  return client;
}

const storeAway = new SchoolMcpError('STORE_UNAVAILABLE', 'The Redis grant store could not read a record.', {
  hint: 'Start Redis, or check --store.',
});

describe('the account tools when something fails', () => {
  it.each(['who_am_i', 'sign_out'])(
    'SCL-05 %s answers a store outage as every tool does: call again shortly, without the operator hint',
    async (name) => {
      const client = await connectedTo({
        status: () => Promise.reject(storeAway),
        signOut: () => Promise.reject(storeAway),
      });
      const result = (await client.callTool({ name, arguments: {} })) as Result;
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(new RegExp(`^${name} failed \\(STORE_UNAVAILABLE\\)\\.\\n`));
      expect(textOf(result)).toContain(`Next step: call ${name} again in a few seconds`);
      expect(textOf(result)).not.toContain('Start Redis');
    },
  );

  it('quotes any other coded failure with its code and hint', async () => {
    const refused = new SchoolMcpError('OAUTH_NETWORK', 'The school could not be reached.', {
      hint: 'Try again later.',
    });
    const client = await connectedTo({ status: () => Promise.reject(refused), signOut: () => Promise.reject(refused) });
    const result = (await client.callTool({ name: 'sign_out', arguments: {} })) as Result;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('Signing out failed: OAUTH_NETWORK: The school could not be reached. Try again later.');
  });
});
