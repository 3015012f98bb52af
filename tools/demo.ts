/**
 * `npm run demo`: a scripted agent session against the embedded sandbox school. It starts the
 * sandbox, runs school-mcp as a real stdio child process with the SDK's client, which declares
 * URL-mode elicitation, plays the user who approves each permission on the school's consent page
 * when the client shows the link, and prints each step: discovery, registration, consent, the
 * tools per toolset, a few administrator tasks (`demo-session.ts`), the number of consent prompts
 * they took, and sign-out.
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { completeConsent, startSandbox } from '@school-mcp/sandbox';
import { DEMO_PROMPT_BUDGET, runAdministratorTasks, type ToolResult } from './demo-session.js';

const MAIN_JS = resolve(import.meta.dirname, '../src/main.js');
const out = (line = '') => process.stdout.write(`${line}\n`);
const step = (title: string) => out(`\n== ${title}`);

async function main(): Promise<void> {
  out('school-mcp demo: an agent session against the sandbox school');
  const sandbox = await startSandbox({ autoApprove: false });
  const configDir = await mkdtemp(join(tmpdir(), 'school-mcp-demo-'));
  step('The sandbox school');
  out(`school:       ${sandbox.url}`);
  out(`metadata:     ${sandbox.url}/.well-known/oauth-authorization-server`);
  out(`API document: ${sandbox.url}/openapi.json`);
  out('(the demo plays the user: it answers the consent page the way a click on Allow would)');

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN_JS, '--school', sandbox.url, '--config-dir', configDir, '--no-browser'],
    stderr: 'pipe',
  });
  // The server also prints each link on stderr, for the host's log; the user gets it from the client.
  let partial = '';
  (transport.stderr as Readable | null)?.on('data', (chunk: Buffer) => {
    partial += chunk.toString('utf8');
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) out(`   | ${line}`);
  });

  const client = new Client(
    { name: 'school-mcp-demo', version: '1.0.0' },
    { capabilities: { elicitation: { url: {} } } },
  );
  let prompts = 0;
  // What a host with URL elicitation does: show the message and the full URL, and open it only
  // once the user agrees; here the user always agrees and approves.
  client.setRequestHandler('elicitation/create', async (request) => {
    const { message, url } = request.params as { message: string; url: string };
    prompts += 1;
    out(`   [client] the server asks: ${message}`);
    out(`   [client] link: ${new URL(url).origin}${new URL(url).pathname}?...`);
    out('   [user] opens the link and clicks Allow');
    await approve(url);
    return { action: 'accept' };
  });
  client.setNotificationHandler('notifications/elicitation/complete', () => {
    out('   [client] the server reports the approval complete');
  });
  try {
    step('Start school-mcp over stdio and list its tools');
    await client.connect(transport);
    const { tools } = await client.listTools();
    const byToolset = new Map<string, string[]>();
    for (const tool of tools) {
      const named = tool._meta?.['school-mcp/toolset'];
      const toolset = typeof named === 'string' ? named : 'server';
      byToolset.set(toolset, [...(byToolset.get(toolset) ?? []), tool.name]);
    }
    out(`${tools.length} tools`);
    for (const [toolset, names] of byToolset) out(`  ${toolset.padEnd(18)} ${names.join(', ')}`);

    const call = async (name: string, args: Record<string, unknown> = {}): Promise<ToolResult> => {
      out(`-> ${name} ${JSON.stringify(args)}`);
      const result = (await client.callTool({ name, arguments: args })) as ToolResult;
      const text = result.content?.map((block) => block.text ?? '').join(' ') ?? '';
      out(`<- ${result.isError ? 'ERROR ' : ''}${text.length > 300 ? `${text.slice(0, 300)}...` : text}`);
      return result;
    };

    step('Who am I? (nothing is signed in yet)');
    await call('who_am_i');

    await runAdministratorTasks(call, step, out);
    out(
      `\nConsent prompts for the whole session: ${prompts} (budget ${DEMO_PROMPT_BUDGET}: the reads together first, then each write once)`,
    );
    if (prompts > DEMO_PROMPT_BUDGET) process.exitCode = 1;

    step('Who am I now?');
    await call('who_am_i');

    step('Sign out: both tokens are revoked at the school');
    await call('sign_out');
    await call('who_am_i');
  } finally {
    await client.close().catch(() => undefined);
    await sandbox.close();
    await rm(configDir, { recursive: true, force: true });
  }
  out('\nDone.');
}

async function approve(link: string): Promise<void> {
  const callback = await completeConsent(link, 'allow');
  const response = await fetch(callback);
  await response.text();
}

main().catch((error: unknown) => {
  process.stderr.write(`demo failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
