/**
 * The rows measured by calling a read operation: added latency (stdio and HTTP, concurrency 1
 * and 16, against the direct request) and memory (resident set after start and after many calls).
 */
import { reasonOf, timeCalls, type CallOnce } from './latency.js';
import { residentBytes, startMcpServer, type LaunchSpec } from './mcp-process.js';
import type { Measured, MemoryCell } from './results.js';
import { readToolName, toolCaller } from './servers.js';

/** A stdio server started for calls, with its read tool found; closed by the caller. */
export async function startForCalls(
  launch: Measured<LaunchSpec>,
): Promise<Measured<{ call: CallOnce; pid: number; close(): Promise<void> }>> {
  if (!launch.ok) return launch;
  try {
    const server = await startMcpServer(launch.value);
    try {
      const call = toolCaller(server.client, readToolName(server.firstList));
      return { ok: true, value: { call, pid: server.pid, close: server.close } };
    } catch (error) {
      await server.close();
      throw error;
    }
  } catch (error) {
    return { ok: false, reason: reasonOf(error) };
  }
}

/**
 * Resident set after start, after half the calls and after all of them (16 at a time); with
 * `longCalls`, once more after that many calls in all.
 */
export async function measureMemory(
  launch: Measured<LaunchSpec>,
  calls: number,
  longCalls?: number,
): Promise<Measured<MemoryCell>> {
  const server = await startForCalls(launch);
  if (!server.ok) return server;
  try {
    const afterStart = await residentBytes(server.value.pid);
    await timeCalls(server.value.call, Math.floor(calls / 2), 16);
    const afterHalf = await residentBytes(server.value.pid);
    await timeCalls(server.value.call, calls - Math.floor(calls / 2), 16);
    const afterAll = await residentBytes(server.value.pid);
    if (longCalls === undefined || longCalls <= calls)
      return { ok: true, value: { afterStart, afterHalf, afterAll, calls } };
    await timeCalls(server.value.call, longCalls - calls, 16);
    const afterLong = { bytes: await residentBytes(server.value.pid), calls: longCalls };
    return { ok: true, value: { afterStart, afterHalf, afterAll, calls, afterLong } };
  } catch (error) {
    return { ok: false, reason: reasonOf(error) };
  } finally {
    await server.value.close();
  }
}
