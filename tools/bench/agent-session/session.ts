/**
 * The scripted agent session, end to end: the sandbox school in its own process,
 * school-mcp as a real stdio child process with its default tool list, a host whose client shows
 * URL consent requests (MCP elicitation), the user who approves each one on the school's consent
 * page, and the agent of `played-agent.ts` working through the 15 tasks. A second session then
 * starts school-mcp again on the same token store and does the same work, so that its prompts
 * show whether the grants were kept. A third, on a token store of its own, works through the
 * twelve tasks the default list was not chosen for.
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { completeConsent } from '@school-mcp/sandbox';
import { collectLines } from '../child-lines.js';
import { SCHOOL_MCP_MAIN } from '../paths.js';
import { startSandboxProcess } from '../sandbox-process.js';
import { runTasks, type ListedTool, type SessionRecord, type ToolResult } from './played-agent.js';
import { administratorTasks, type AgentTask } from './tasks.js';
import { unseenAdministratorTasks } from './unseen-tasks.js';

export interface AgentSessionOptions {
  /** The school-mcp entry point to measure (another build's `dist/bin/school-mcp.js` for a "before" figure). */
  readonly schoolMcpMain?: string;
  readonly countTokens: (text: string) => number;
  /** Fixes the tasks' dates; now by default. */
  readonly now?: Date;
}

/** One consent the user was asked for, with the scopes its link asked for. */
export interface ConsentPrompt {
  readonly scopes: readonly string[];
}

interface SessionRun {
  readonly record: SessionRecord;
  readonly prompts: readonly ConsentPrompt[];
}

export interface AgentSessionResult {
  /** The `tools/list` answer as the host got it. */
  readonly list: { readonly tools: readonly ListedTool[] };
  /** The server's instructions, which a host loads with the list. */
  readonly instructions: string;
  readonly first: SessionRun;
  /** The same work again, by a new process on the same token store. */
  readonly second: SessionRun;
  /** The twelve tasks the default list was not chosen for (`unseen-tasks.ts`), in a session of their own on a new token store. */
  readonly unseen: SessionRun;
}

export async function runAgentSessions(options: AgentSessionOptions): Promise<AgentSessionResult> {
  const sandbox = await startSandboxProcess();
  const configDir = await mkdtemp(join(tmpdir(), 'school-mcp-agent-'));
  const unseenConfigDir = await mkdtemp(join(tmpdir(), 'school-mcp-agent-unseen-'));
  try {
    const now = options.now ?? new Date();
    const main = options.schoolMcpMain ?? SCHOOL_MCP_MAIN;
    const launch = { main, schoolUrl: sandbox.url, configDir };
    const first = await oneSession(launch, administratorTasks(1, now), options.countTokens);
    const second = await oneSession(launch, administratorTasks(2, now), options.countTokens);
    const unseen = await oneSession(
      { main, schoolUrl: sandbox.url, configDir: unseenConfigDir },
      unseenAdministratorTasks(1, now),
      options.countTokens,
    );
    return {
      list: first.list,
      instructions: first.instructions,
      first: first.run,
      second: second.run,
      unseen: unseen.run,
    };
  } finally {
    await sandbox.close();
    await rm(configDir, { recursive: true, force: true });
    await rm(unseenConfigDir, { recursive: true, force: true });
  }
}

interface Launch {
  readonly main: string;
  readonly schoolUrl: string;
  readonly configDir: string;
}

async function oneSession(
  launch: Launch,
  tasks: readonly AgentTask[],
  countTokens: (text: string) => number,
): Promise<{ list: { tools: ListedTool[] }; instructions: string; run: SessionRun }> {
  // Default flags: the school and where tokens live; --no-browser so that no real browser opens
  // (the host below shows each link instead, as a host with URL elicitation does).
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [launch.main, '--school', launch.schoolUrl, '--config-dir', launch.configDir, '--no-browser'],
    stderr: 'pipe',
    env: { PATH: process.env['PATH'] ?? '', HOME: launch.configDir },
  });
  const stderr = collectLines(transport.stderr as Readable | null);
  const client = new Client(
    { name: 'school-mcp-agent-bench', version: '1.0.0' },
    { capabilities: { elicitation: { url: {} } } },
  );
  const prompts: ConsentPrompt[] = [];
  client.setRequestHandler('elicitation/create', async (request) => {
    const { url } = request.params as { url?: string };
    if (url === undefined) return { action: 'decline' };
    prompts.push({ scopes: (new URL(url).searchParams.get('scope') ?? '').split(' ').filter((scope) => scope !== '') });
    // The user opens the link and clicks Allow; the school redirects to school-mcp's loopback.
    await (await fetch(await completeConsent(url, 'allow'))).text();
    return { action: 'accept' };
  });
  try {
    await client.connect(transport);
    const list = (await client.listTools()) as { tools: ListedTool[] };
    const instructions = client.getInstructions() ?? '';
    const record = await runTasks(
      list.tools,
      tasks,
      (name, args) => client.callTool({ name, arguments: args }) as Promise<ToolResult>,
      countTokens,
      instructions,
    );
    return { list, instructions, run: { record, prompts } };
  } catch (error) {
    throw new Error(
      `the agent session failed: ${error instanceof Error ? error.message : String(error)}\n${stderr.lines.slice(-15).join('\n')}`,
    );
  } finally {
    await client.close().catch(() => undefined);
  }
}
