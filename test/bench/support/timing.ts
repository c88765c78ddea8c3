/**
 * Operations per second of synchronous functions: warm-up, then several rounds of a fixed time
 * budget each, cases interleaved round by round so that load from other processes on this shared
 * machine hits every case alike (the ratios stay fair even when the absolute figures wobble).
 */
import { median, spread } from './stats.js';

export interface OpsCase {
  name: string;
  /** One whole operation; its result is kept so the engine cannot drop the work. */
  run: () => unknown;
}

export interface OpsResult {
  name: string;
  /** Median of the rounds. */
  opsPerSec: number;
  rounds: number[];
  /** (max - min) / median of the rounds. */
  spread: number;
}

export interface OpsOptions {
  warmupMs: number;
  budgetMs: number;
  rounds: number;
}

let sink = 0;
function keep(value: unknown): void {
  sink = (sink + (typeof value === 'string' ? value.length : 1)) | 0;
}

/**
 * Runs `fn` for about `budgetMs` and answers operations per second. The clock is read once per
 * batch (batches grow until one lasts ~1 ms) so timer cost does not count against cheap hashes.
 */
export function opsFor(fn: () => unknown, budgetMs: number): number {
  let batch = 1;
  let ops = 0;
  const start = performance.now();
  let now = start;
  while (now - start < budgetMs) {
    const batchStart = now;
    for (let i = 0; i < batch; i++) keep(fn());
    ops += batch;
    now = performance.now();
    if (now - batchStart < 1 && batch < 1 << 20) batch *= 2;
  }
  return (ops * 1000) / (now - start);
}

export function measureOps(cases: readonly OpsCase[], options: OpsOptions): OpsResult[] {
  for (const c of cases) opsFor(c.run, options.warmupMs);
  const rounds = new Map<string, number[]>(cases.map((c) => [c.name, []]));
  for (let round = 0; round < options.rounds; round++) {
    for (const c of cases) rounds.get(c.name)?.push(opsFor(c.run, options.budgetMs));
  }
  if (sink === 42) console.log(''); // read the sink once
  return cases.map((c) => {
    const values = rounds.get(c.name) ?? [];
    return { name: c.name, opsPerSec: median(values), rounds: values, spread: spread(values) };
  });
}
