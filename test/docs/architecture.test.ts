/**
 * docs/architecture.md stays true to the tree: every path it names in backticks is a file or
 * folder of the repository, and every code name it names (`startPayment`, `CLAIMING_OPERATION_KINDS`,
 * `abandoned_at`) is written in the source. A move or a rename that forgets the map fails here.
 *
 * Its table of session and order state moves is the one the store enforces: the doc holds
 * `stateMovesMarkdown()`'s output verbatim (server/src/store/state-moves.ts).
 *
 * A path may be written from the root (`server/src/checkout/app.ts`) or as the tail of one
 * (`payments/pay.ts`, `app.ts`) where the text around it says which folder it means; a tail must
 * end a path of the tree at a folder boundary.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { stateMovesMarkdown } from '../../server/src/store/state-moves.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOC = 'docs/architecture.md';

/** Every file the repository tracks, and every folder above one. */
function trackedPaths(): { files: string[]; folders: Set<string> } {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter(Boolean);
  const folders = new Set<string>();
  for (const file of files) {
    const parts = file.split('/');
    for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join('/'));
  }
  return { files, folders };
}

/** The backticked spans of the doc's prose (fenced blocks left out). */
function codeSpans(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return [...prose.matchAll(/`([^`\n]+)`/g)].map((match) => match[1] as string);
}

const PATH = /^[\w.-]+(\/[\w.-]+)*\/?$/;
const FILE_SUFFIX = /\.(ts|mts|mjs|js|json|md|sh|html|css)$/;
/** A code name: camelCase, PascalCase, snake_case or UPPER_CASE, optionally called (`name()`). */
const CODE_NAME = /^([A-Za-z_$][\w$]*)(\(\))?$/;
const isCodeName = (name: string) => /[a-z][A-Z]|^[A-Z][a-z]+[A-Z]|_|^[A-Z]{2,}$/.test(name);

function isPath(span: string): boolean {
  if (!PATH.test(span)) return false;
  return FILE_SUFFIX.test(span) || span.endsWith('/') || span.includes('/');
}

/** The source the doc's code names must be found in. */
function sourceText(files: string[]): string {
  return files
    .filter(
      (file) =>
        /^(server\/src|widget\/src|contract|demo|scripts)\/.*\.(ts|mjs|js)$/.test(file) ||
        file === 'biome.json' ||
        file === 'vite.config.ts',
    )
    .map((file) => readFileSync(join(ROOT, file), 'utf8'))
    .join('\n');
}

describe(DOC, () => {
  const markdown = readFileSync(join(ROOT, DOC), 'utf8');
  const spans = codeSpans(markdown);
  const { files, folders } = trackedPaths();

  test('every path it names exists', () => {
    const every = [...files, ...folders];
    const exported = Object.keys(
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).exports,
    );
    const missing = spans.filter(isPath).filter((span) => {
      // What the build writes, and the package's own entry points, are not files of the tree.
      if (span.startsWith('dist/')) return false;
      if (span.startsWith('pay-checkout/')) return !exported.includes(`.${span.slice(12)}`);
      const path = span.replace(/\/$/, '').replace(/^(\.\.\/)+/, '');
      return !every.some((known) => known === path || known.endsWith(`/${path}`));
    });
    assert.deepEqual([...new Set(missing)], []);
  });

  test('every code name it names is in the source', () => {
    const source = sourceText(files);
    const names = spans
      .map((span) => CODE_NAME.exec(span)?.[1])
      .filter((name): name is string => name !== undefined && isCodeName(name));
    assert.ok(names.length > 20, `only ${names.length} code names found: is the pattern right?`);
    const missing = names.filter(
      (name) => !new RegExp(`(?<![\\w$])${escapeDollar(name)}(?![\\w$])`).test(source),
    );
    assert.deepEqual([...new Set(missing)], []);
  });

  test('its state table is the one the store enforces (stateMovesMarkdown)', () => {
    const table = stateMovesMarkdown();
    assert.ok(
      markdown.includes(`\n${table}\n`),
      `paste the output of stateMovesMarkdown() (server/src/store/state-moves.ts) into ${DOC}:\n${table}`,
    );
  });
});

function escapeDollar(text: string): string {
  return text.replace(/[$]/g, '\\$');
}
