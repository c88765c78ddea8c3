/**
 * test/bench/RESULTS.md: run.ts rewrites the top (machine, widget, signing, backend); load.ts
 * appends dated sections below LOAD_HEADING, which a later run.ts keeps.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export const RESULTS_FILE = new URL('../RESULTS.md', import.meta.url).pathname;
export const LOAD_HEADING = '## Load test';

/** The load sections already in the file, to carry over a rewrite. */
export function keptLoadSections(): string {
  if (!existsSync(RESULTS_FILE)) return '';
  const text = readFileSync(RESULTS_FILE, 'utf8');
  const at = text.indexOf(`\n${LOAD_HEADING}`);
  return at >= 0 ? text.slice(at + 1) : '';
}

/** Removes the load sections of earlier runs (a `--load` run is about to append its own). */
export function dropLoadSections(): void {
  if (!existsSync(RESULTS_FILE)) return;
  const text = readFileSync(RESULTS_FILE, 'utf8');
  const at = text.indexOf(`\n${LOAD_HEADING}`);
  if (at >= 0) writeFileSync(RESULTS_FILE, `${text.slice(0, at).trimEnd()}\n`);
}

export function writeResults(top: string): void {
  const load = keptLoadSections();
  writeFileSync(RESULTS_FILE, `${top.trimEnd()}\n${load ? `\n${load.trimEnd()}\n` : ''}`);
}

export function appendResults(section: string): void {
  const text = existsSync(RESULTS_FILE) ? readFileSync(RESULTS_FILE, 'utf8').trimEnd() : '';
  writeFileSync(RESULTS_FILE, `${text ? `${text}\n\n` : ''}${section.trimEnd()}\n`);
}
