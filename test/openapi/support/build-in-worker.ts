/**
 * A watchdog for the catalogue build: the build runs in a worker thread, and the worker is
 * terminated when it has not answered within the deadline, counted from the moment its code is
 * loaded. A hang becomes a failed test with a message, never a stuck suite.
 */
import { Worker } from 'node:worker_threads';
import type { Operation } from '../../../src/openapi/index.js';
import type { GroupingSource } from '../../../src/openapi/grouping.js';

export interface WorkerCatalogue {
  readonly operations: readonly Operation[];
  readonly toolsets: readonly (readonly [string, readonly string[]])[];
  readonly warnings: readonly string[];
  readonly groupedBy: GroupingSource;
  readonly upgradedFrom: string | undefined;
}

export type BuildInput =
  | { readonly file: string; readonly schoolUrl?: string }
  | { readonly document: unknown; readonly schoolUrl?: string };

/**
 * What the watchdog allows. The target at rest is 5 s for the largest document (Kubernetes, 1,123
 * operations, builds in about 2.5 s on an idle core); the deadline sits well above it so that a
 * machine busy with other work cannot fail a test, while a build that never ends still does.
 */
export const BUILD_DEADLINE_MS = 30_000;

type WorkerMessage =
  | { kind: 'started' }
  | { kind: 'built'; catalogue: WorkerCatalogue }
  | { kind: 'failed'; code?: string; message: string };

export function buildInWorker(input: BuildInput, deadlineMs: number): Promise<WorkerCatalogue> {
  const worker = new Worker(new URL('./catalogue-worker.mjs', import.meta.url), { workerData: input });
  return new Promise<WorkerCatalogue>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      void worker.terminate();
      settle();
    };
    worker.on('message', (message: WorkerMessage) => {
      if (message.kind === 'started') {
        timer = setTimeout(
          () => finish(() => reject(new Error(`the catalogue was not built within ${deadlineMs} ms`))),
          deadlineMs,
        );
      } else if (message.kind === 'built') {
        finish(() => resolve(message.catalogue));
      } else {
        finish(() => reject(Object.assign(new Error(message.message), { code: message.code })));
      }
    });
    worker.on('error', (error) => finish(() => reject(error)));
  });
}
