/**
 * A small closed loop of concurrent workers, each repeating an async cycle (e.g. a whole payment)
 * for a fixed time: cycles per second, cycle latency percentiles, failures with their messages.
 * Used where one autocannon request is not one unit of work (pay, then long-poll until final).
 */
import { percentile } from './stats.js';

export interface CycleResult {
  cycles: number;
  perSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  firstErrors: string[];
  concurrency: number;
  durationS: number;
}

export async function runCycles(
  cycle: () => Promise<void>,
  concurrency: number,
  durationMs: number,
): Promise<CycleResult> {
  const latencies: number[] = [];
  const errors: string[] = [];
  let failures = 0;
  const started = performance.now();
  const end = started + durationMs;
  const worker = async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      try {
        await cycle();
        latencies.push(performance.now() - t0);
      } catch (error) {
        failures += 1;
        if (errors.length < 3) errors.push((error as Error).message.slice(0, 300));
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  // Cycles started before the deadline finish after it: divide by the real elapsed time.
  const elapsed = (performance.now() - started) / 1000;
  return {
    cycles: latencies.length,
    perSec: latencies.length / elapsed,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    errors: failures,
    firstErrors: errors,
    concurrency,
    durationS: elapsed,
  };
}
