/**
 * undici 7 carries every API call (`network/http-stack.ts`) and is loaded on first use, so that a
 * start does not wait for it; loading it was about 85 ms of a first call of 220 to 306 ms on this
 * project's 2-core machine (Node 20, tools/bench/findings.md). Once the host has its tool list,
 * a server is idle until the user asks for something, so undici is loaded then, a moment later
 * (the host's other opening requests come first), and the first call does not wait for it. A
 * server closed before then, or whose host has closed stdin, never loads it.
 */
const AFTER_LIST_MS = 100;

export interface CallWarmUp {
  /** The host has its tool list; the first call's modules load shortly. Only the first start counts. */
  start(): void;
  /** The server is closing: nothing loads, now or after a later `start`. */
  cancel(): void;
}

/** `load` is what the first call would load (`loadUndici`); its failure goes to `onError`, and the call loads it again. */
export function createCallWarmUp(load: () => Promise<unknown>, onError: (error: unknown) => void): CallWarmUp {
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  return {
    start() {
      if (started) return;
      started = true;
      timer = setTimeout(() => void load().catch(onError), AFTER_LIST_MS);
      // A server with nothing else to do exits rather than wait for it.
      timer.unref();
    },
    cancel() {
      started = true;
      clearTimeout(timer);
    },
  };
}
