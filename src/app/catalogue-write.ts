/**
 * When a first start on a document writes its catalogue (`storeCatalogue`, which converts every
 * operation and writes in slices): a moment after the start, so that the host's first exchange
 * (initialize, then tools/list) has the CPU to itself, and at the latest when the host closes the
 * server, so that the next start reads the catalogue even when the host starts a server per
 * session. A process stopped by a signal exits without it.
 */

/**
 * Hosts send initialize and tools/list as soon as the process runs; the list of an uncached start
 * was about 20 ms slower with the write's slices running beside it.
 */
const WRITE_DELAY_MS = 250;

/**
 * What a closing server may spend finishing the write: the Kubernetes document's (1,123
 * operations) takes about a second on a 2-core machine. Past it the process exits without it.
 */
const FINISH_AT_CLOSE_MS = 3_000;

export interface CatalogueWrite {
  /** Runs the write now if it has not started, and waits for it, for a bounded time. */
  finish(): Promise<void>;
}

export function scheduleCatalogueWrite(write: (() => Promise<void>) | undefined): CatalogueWrite {
  if (write === undefined) return { finish: async () => undefined };
  let written: Promise<void> | undefined;
  const start = () => (written ??= write());
  // A failed write is for finish() to report, which awaits the same promise; until then it must not
  // be an unhandled rejection, which ends the process.
  const timer = setTimeout(() => {
    start().catch(() => undefined);
  }, WRITE_DELAY_MS);
  // A process with nothing else to do exits rather than wait for the write's turn.
  timer.unref();
  return {
    async finish() {
      clearTimeout(timer);
      await settledWithin(start(), FINISH_AT_CLOSE_MS);
    },
  };
}

async function settledWithin(work: Promise<void>, ms: number): Promise<void> {
  let deadline: NodeJS.Timeout | undefined;
  try {
    await Promise.race([work, new Promise<void>((resolve) => (deadline = setTimeout(resolve, ms)))]);
  } finally {
    clearTimeout(deadline);
  }
}
