/** Order statistics for benchmark samples. Medians, not means: one noisy round must not move them. */

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile (p in 0..100) of unsorted values; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

/** Spread of rounds as (max - min) / median, so a reader sees how noisy a figure was. */
export function spread(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  return (Math.max(...values) - Math.min(...values)) / median(values);
}
