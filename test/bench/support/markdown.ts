/** Markdown tables and number formats for RESULTS.md. */

export type Cell = string | number | null | undefined;

export function table(head: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const line = (cells: readonly Cell[]) => `| ${cells.map(cell).join(' | ')} |`;
  const rule = `|${head.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`;
  return [line(head), rule, ...rows.map(line)].join('\n');
}

function cell(value: Cell): string {
  if (value === null || value === undefined) return '–';
  if (typeof value === 'number') return Number.isFinite(value) ? fmt(value) : '–';
  return value.replaceAll('|', '\\|');
}

/** Thousands separators, and at most three significant decimals for small numbers. */
export function fmt(value: number): string {
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  return Number(value.toPrecision(3)).toLocaleString('en-US', { maximumFractionDigits: 3 });
}

/** value / base, with three significant digits when small (a pay cycle is far below 1×). */
export function ratio(value: number, base: number): string {
  if (!(base > 0) || !Number.isFinite(value)) return '–';
  const r = value / base;
  return `${r >= 0.1 ? r.toFixed(2) : r.toPrecision(3)}×`;
}

export const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
