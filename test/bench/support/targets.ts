/**
 * The table that opens RESULTS.md: each figure an issue set a target for, the target, the figure
 * it replaced (as the issue measured it), and what this run measured, with a plain verdict.
 */
import { table } from './markdown.js';

export interface TargetRow {
  figure: string;
  target: string;
  /** The figure before the work, as the issue that set the target measured it. */
  replaced: string;
  measured: string;
  /** undefined: not measured in this run (e.g. skipped). */
  met: boolean | undefined;
}

export function targetsTable(rows: readonly TargetRow[]): string {
  return table(
    ['figure', 'target', 'replaced', 'this run', 'verdict'],
    rows.map((r) => [
      r.figure,
      r.target,
      r.replaced,
      r.measured,
      r.met === undefined ? 'not measured' : r.met ? '**met**' : '**missed**',
    ]),
  );
}
