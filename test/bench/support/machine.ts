/** What a figure was measured on: printed at the top of RESULTS.md, beside the date and command. */
import { cpus, freemem, loadavg, totalmem } from 'node:os';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  freeMemoryGiB: number;
  loadAverage: string;
  node: string;
  platform: string;
  date: string;
}

export function machineInfo(): MachineInfo {
  const list = cpus();
  const gib = (bytes: number) => Math.round((bytes / 2 ** 30) * 10) / 10;
  return {
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryGiB: gib(totalmem()),
    freeMemoryGiB: gib(freemem()),
    // The 1-minute load at start: a hint of how busy the shared machine was.
    loadAverage: loadavg()
      .map((n) => n.toFixed(2))
      .join(' / '),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    date: new Date().toISOString(),
  };
}
