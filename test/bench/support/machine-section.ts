/** The machine table that heads RESULTS.md and every load section. */
import { machineInfo } from './machine.js';
import { table } from './markdown.js';

export function machineSection(command: string): string {
  const m = machineInfo();
  return table(
    ['what', 'value'],
    [
      ['date', m.date],
      ['command', `\`${command}\``],
      ['CPU', m.cpuModel],
      ['cores', String(m.cores)],
      ['memory', `${m.memoryGiB} GiB (${m.freeMemoryGiB} GiB free at start)`],
      ['load average at start (1/5/15 min)', m.loadAverage],
      ['Node', `${m.node} (${m.platform})`],
    ],
  );
}
