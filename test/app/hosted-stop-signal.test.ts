/**
 * `runHosted` listens for SIGINT and SIGTERM before it says "serving hosted": whoever waits for
 * that line (an orchestrator, the end-to-end tests) may stop the process at once and still get a
 * drain and exit 0, where a signal with no listener yet would end it on the spot.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runHosted } from '../../src/app/index.js';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log.js';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
const before = new Map(SIGNALS.map((signal) => [signal, process.listeners(signal)]));
/** The listeners of `signal` added since this file was loaded. */
const added = (signal: NodeJS.Signals) =>
  process.listeners(signal).filter((listener) => !before.get(signal as (typeof SIGNALS)[number])!.includes(listener));

afterEach(() => {
  for (const signal of SIGNALS) for (const listener of added(signal)) process.off(signal, listener);
});

describe('school-mcp --hosted and its stop signals', () => {
  it('listens for SIGTERM by the time it says "serving hosted", and a SIGTERM at that moment drains and returns 0', async () => {
    let listeningAtServing: number | undefined;
    let serving!: () => void;
    const served = new Promise<void>((resolve) => (serving = resolve));
    const lines: string[] = [];
    const logger = createLogger({
      level: 'info',
      write: (line) => {
        lines.push(line);
        if (/serving hosted/.test(line)) {
          listeningAtServing = added('SIGTERM').length;
          serving();
        }
      },
    });
    const config = loadConfig(['--hosted', '--demo', '--host', '127.0.0.1', '--port', '0'], {
      SCHOOL_MCP_STORE_KEY: '',
    });
    const running = runHosted(config, logger, '0.0.0-test');
    await served;
    expect(listeningAtServing, lines.join('\n')).toBe(1);
    // What the process's signal would do: call the listener in place.
    for (const listener of added('SIGTERM')) (listener as (signal: NodeJS.Signals) => void)('SIGTERM');
    expect(await running).toBe(0);
    expect(lines.some((line) => /stopping/.test(line) && /SIGTERM/.test(line))).toBe(true);
    expect(added('SIGTERM')).toHaveLength(0);
    expect(added('SIGINT')).toHaveLength(0);
  }, 60_000);
});
