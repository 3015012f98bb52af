/** The machine a run was measured on, named in the report. */
import { cpus, loadavg, totalmem } from 'node:os';

export interface Machine {
  readonly cpuModel: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly node: string;
  readonly platform: string;
  /** At the start of the run: the machine may be shared, and this says how busy it was. */
  readonly loadAverage: readonly number[];
}

export function describeMachine(): Machine {
  const processors = cpus();
  return {
    cpuModel: processors[0]?.model.trim() ?? 'unknown',
    cores: processors.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverage: loadavg().map((load) => Math.round(load * 100) / 100),
  };
}
