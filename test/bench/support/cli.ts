/**
 * The convention every bench file follows: run alone it prints a readable summary; given
 * `--json FILE` it also writes its result there for run.ts (stdout stays for humans).
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export function flag(name: string): boolean {
  return process.argv.includes(name);
}

export function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/** True when the module at `metaUrl` is the script node was started with. */
export function isMain(metaUrl: string): boolean {
  const script = process.argv[1];
  return script !== undefined && pathToFileURL(resolve(script)).href === metaUrl;
}

export function writeJson(value: unknown): void {
  const file = option('--json');
  if (file) writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}
