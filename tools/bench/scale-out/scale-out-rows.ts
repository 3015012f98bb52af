/**
 * The scale-out rows, in one run: the same load on one instance with its directory store, one
 * instance on Redis, and three instances on Redis behind haproxy. Each deployment is started
 * fresh (tools/bench/scale-out/cluster.ts); `USERS` staff members sign in through its public
 * URL, each with their own MCP client and connection, then each calls a read tool back to back.
 * Every call's duration is kept; calls per second is all calls over the round's wall time.
 */
import type { Client } from '@modelcontextprotocol/client';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { staffRoster } from '../../../packages/sandbox/src/school-user.js';
import { reasonOf } from '../latency.js';
import type { Measured } from '../results.js';
import { measureThroughput, type ThroughputCell, type ThroughputPlan } from '../throughput-rounds.js';
import { startCluster, type ClusterOptions } from './cluster.js';
import { signInEveryone } from './staff-session.js';

export const SCALE_OUT_USERS = 16;
const READ_TOOL = { name: 'list_courses', arguments: { per_page: 10 } } as const;

export type ScaleOutDeployment = 'directory' | 'redis' | 'redis-3';

export const SCALE_OUT_DEPLOYMENTS: readonly {
  readonly id: ScaleOutDeployment;
  readonly label: string;
  readonly cluster: Pick<ClusterOptions, 'instances' | 'store' | 'loadBalancer'>;
}[] = [
  {
    id: 'directory',
    label: '1 instance, directory store',
    cluster: { instances: 1, store: 'directory', loadBalancer: false },
  },
  { id: 'redis', label: '1 instance, Redis', cluster: { instances: 1, store: 'redis', loadBalancer: false } },
  {
    id: 'redis-3',
    label: '3 instances, Redis, haproxy round-robin',
    cluster: { instances: 3, store: 'redis', loadBalancer: true },
  },
];

export type ScaleOutCell = ThroughputCell;
/** `users`: staff members signed in at once, each with their own client (SCALE_OUT_USERS in a measurement). */
export type ScaleOutPlan = ThroughputPlan & { readonly users: number };

async function callOnce(client: Client): Promise<void> {
  const result = (await client.callTool({ ...READ_TOOL, arguments: { ...READ_TOOL.arguments } })) as {
    isError?: boolean;
    content?: { text?: string }[];
  };
  if (result.isError) throw new Error(`${READ_TOOL.name} failed: ${result.content?.[0]?.text ?? ''}`);
}

async function measureDeployment(
  deployment: (typeof SCALE_OUT_DEPLOYMENTS)[number],
  plan: ScaleOutPlan,
  progress: (line: string) => void,
): Promise<Measured<ScaleOutCell>> {
  const scratch = await mkdtemp(join(tmpdir(), 'school-mcp-bench-scale-out-'));
  let close = async (): Promise<void> => undefined;
  let clients: Client[] = [];
  try {
    progress(`scale-out: starting ${deployment.label}`);
    const cluster = await startCluster({ ...deployment.cluster, extraStaff: plan.users, scratch, logLevel: 'info' });
    close = cluster.close;
    progress(`scale-out: signing in ${plan.users} staff members through ${cluster.publicUrl}`);
    // Generated members only: the roster's named three are skipped so each connection is its own person.
    clients = (await signInEveryone(cluster.publicUrl, staffRoster(plan.users).slice(3, 3 + plan.users), 4)).map(
      (session) => session.client,
    );
    const cell = await measureThroughput(clients, callOnce, plan, (round) =>
      progress(`scale-out: ${deployment.label}, round ${round + 1} of ${plan.rounds}`),
    );
    return { ok: true, value: cell };
  } catch (error) {
    return { ok: false, reason: reasonOf(error) };
  } finally {
    await Promise.allSettled(clients.map((client) => client.close()));
    await close();
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Every deployment, one after the other, so that none competes with another for the cores. */
export async function measureScaleOut(
  plan: ScaleOutPlan,
  progress: (line: string) => void,
): Promise<Record<ScaleOutDeployment, Measured<ScaleOutCell>>> {
  const cells: Partial<Record<ScaleOutDeployment, Measured<ScaleOutCell>>> = {};
  for (const deployment of SCALE_OUT_DEPLOYMENTS)
    cells[deployment.id] = await measureDeployment(deployment, plan, progress);
  return cells as Record<ScaleOutDeployment, Measured<ScaleOutCell>>;
}
