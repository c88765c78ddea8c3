/**
 * How much slower than a quiet machine this run may be, as a factor for every deadline the tests
 * set themselves (a file's time limit, a wait for an event, a bound a journey asserts). A
 * developer's laptop is busy with other work; a suite whose limits assume an idle machine fails
 * there and teaches people to ignore red. The limits stay those of a quiet 2-core machine, times
 * this factor.
 *
 * TEST_TIME_SCALE when set (scripts/test.sh measures it once and passes it on, so that every
 * process of a run agrees); else 1 + the load average per core, at least 1, at most MAX_SCALE.
 * Run directly it prints the factor for the scripts: 1 + the CPUs busy with other work now (a
 * half-second sample of /proc/stat, where there is one) or by the load average, per core.
 *
 *   node --import tsx test/support/time-scale.ts   → e.g. 2.1
 */
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';

/** Past this the machine is too busy for any bound to mean anything; a hang still ends. */
export const MAX_SCALE = 6;

const clamp = (n: number) => Math.min(MAX_SCALE, Math.max(1, Math.round(n * 10) / 10));

/** 1 + the 1-minute load average per core. */
export function loadScale(): number {
  return clamp(1 + loadavg()[0]! / availableParallelism());
}

function fromEnvironment(): number | undefined {
  const value = Number(process.env.TEST_TIME_SCALE);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** The factor of this run. */
export const TIME_SCALE = fromEnvironment() ?? loadScale();

/** A quiet machine's milliseconds, on this one. */
export function scaled(ms: number): number {
  return Math.round(ms * TIME_SCALE);
}

/** Total and idle jiffies of all CPUs (Linux); undefined elsewhere. */
function cpuTimes(): { total: number; idle: number } | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const fields = line.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    return { total: fields.slice(0, 8).reduce((a, b) => a + b, 0), idle };
  } catch {
    return undefined;
  }
}

/** 1 + the cores busy now, per core: the load average lags a minute behind load that just began. */
export async function measuredScale(sampleMs = 500): Promise<number> {
  const first = cpuTimes();
  await new Promise((resolve) => setTimeout(resolve, sampleMs));
  const second = cpuTimes();
  const byLoad = loadScale();
  if (!first || !second || second.total <= first.total) return byLoad;
  const busy = 1 - (second.idle - first.idle) / (second.total - first.total);
  return Math.max(byLoad, clamp(1 + busy));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(fromEnvironment() ?? (await measuredScale()));
}
