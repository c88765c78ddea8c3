/**
 * README.md and docs/ cannot rot: every relative link resolves to a file (and a `#anchor` into a
 * Markdown file to one of its headings, by GitHub's slug rules), every npm command they name is a
 * script of package.json, and every variable of the configuration table in docs/backend.md is
 * one that server/src/config.ts reads, and the other way round.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

/** The text outside fenced code blocks, line numbers kept (fenced lines become empty). */
function prose(markdown: string): string[] {
  let fence: string | undefined;
  return markdown.split('\n').map((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      return '';
    }
    if (marker) {
      fence = marker;
      return '';
    }
    return line;
  });
}

/** GitHub's anchor for a heading: lowercase, punctuation but `-` and `_` dropped, spaces to `-`. */
function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link keeps its text
    .replace(/<[^>]+>/g, '') // inline HTML
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a Markdown file offers: its headings' slugs, repeats numbered as GitHub does. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const line of prose(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  return found;
}

interface Link {
  line: number;
  target: string;
}

/** Inline links and images, and reference definitions, outside code; external ones left out. */
function relativeLinks(markdown: string): Link[] {
  const links: Link[] = [];
  prose(markdown).forEach((text, index) => {
    const line = text.replace(/(`+)[^`]*?\1/g, ''); // inline code spans
    const targets = [
      ...[...line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
      ...[...line.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g)].map((m) => m[1]!),
    ];
    for (const target of targets) {
      if (/^([a-z][a-z0-9+.-]*:|\/\/)/i.test(target)) continue; // https:, mailto:, //host
      links.push({ line: index + 1, target });
    }
  });
  return links;
}

describe('README.md and docs/*.md', () => {
  test('the pages are there', () => {
    for (const page of [
      'docs/widget.md',
      'docs/backend.md',
      'docs/merchant-api.md',
      'docs/three-d-secure.md',
      'docs/deployment.md',
      'docs/operations.md',
      'docs/sandbox.md',
      'docs/security.md',
    ]) {
      assert.ok(PAGES.includes(page), `${page} is missing`);
    }
  });

  test('the README links every page of docs/', () => {
    const linked = new Set(
      relativeLinks(read('README.md')).map((link) => link.target.split('#')[0]),
    );
    assert.deepEqual(
      PAGES.filter((page) => page !== 'README.md' && !linked.has(page)),
      [],
    );
  });

  test("the slug rules are GitHub's", () => {
    assert.equal(slug("Your page's CSP"), 'your-pages-csp');
    assert.equal(slug('3-D Secure modes'), '3-d-secure-modes');
    assert.equal(slug('`npm start`, before and after'), 'npm-start-before-and-after');
    assert.equal(slug('An `unknown` operation'), 'an-unknown-operation');
    assert.equal(slug('TLS and `PUBLIC_URL`'), 'tls-and-public_url');
    assert.equal(slug('States and transitions (rules 1–7)'), 'states-and-transitions-rules-17');
  });

  test('every relative link resolves to a file, and every anchor to a heading', () => {
    const problems: string[] = [];
    let checked = 0;
    for (const page of PAGES) {
      const here = dirname(join(ROOT, page));
      for (const { line, target } of relativeLinks(read(page))) {
        checked += 1;
        const hash = target.indexOf('#');
        const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
        const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
        const file = pathPart === '' ? join(ROOT, page) : join(here, pathPart.split('?')[0]!);
        const where = `${page}:${line}: ${target}`;
        if (relative(ROOT, file).startsWith('..')) {
          problems.push(`${where} leaves the repository`);
        } else if (!existsSync(file)) {
          problems.push(`${where}: no file ${relative(ROOT, file)}`);
        } else if (anchor !== undefined && file.endsWith('.md')) {
          if (!anchors(readFileSync(file, 'utf8')).has(anchor.toLowerCase())) {
            problems.push(`${where}: no heading #${anchor} in ${relative(ROOT, file)}`);
          }
        }
      }
    }
    assert.ok(checked > 50, `only ${checked} links found`);
    assert.deepEqual(problems, []);
  });

  test("every npm command they name is one of package.json's scripts", () => {
    const scripts = Object.keys(
      (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts,
    );
    const problems: string[] = [];
    const readme = read('README.md');
    for (const page of PAGES) {
      read(page)
        .split('\n')
        .forEach((text, index) => {
          const named = [
            ...[...text.matchAll(/\bnpm run ([\w:.-]+)/g)].map((m) => m[1]!),
            ...[...text.matchAll(/\bnpm (start|test|ci)\b/g)].map((m) => m[1]!),
          ];
          for (const script of named) {
            // `npm ci` is npm's own command, not a script.
            if (script !== 'ci' && !scripts.includes(script)) {
              problems.push(`${page}:${index + 1}: no script "${script}"`);
            }
          }
        });
    }
    assert.ok(
      /\bnpm test\b/.test(readme) && /\bnpm start\b/.test(readme),
      'README names no npm command',
    );
    assert.deepEqual(problems, []);
  });

  test("docs/backend.md's configuration table is what server/src/config.ts reads", () => {
    const config = read('server/src/config.ts');
    const schema = /const envSchema = z\.object\(\{([\s\S]*?)\n\}\);/.exec(config)?.[1];
    assert.ok(schema, 'no envSchema in server/src/config.ts');
    const readByConfig = new Set(
      [...schema.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]!),
    );

    const lines = read('docs/backend.md').split('\n');
    const header = lines.findIndex((line) => /^\|\s*Variable\s*\|/.test(line));
    assert.ok(header >= 0, 'no configuration table in docs/backend.md');
    const documented: string[] = [];
    for (const line of lines.slice(header + 2)) {
      if (!line.startsWith('|')) break;
      const name = /^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|/.exec(line)?.[1];
      assert.ok(name, `a row without a variable: ${line.slice(0, 60)}`);
      documented.push(name);
    }
    assert.ok(documented.length > 10, `only ${documented.length} rows`);
    assert.deepEqual(
      documented.filter((name) => !readByConfig.has(name)),
      [],
      'documented but not read by server/src/config.ts',
    );
    assert.deepEqual(
      [...readByConfig].filter((name) => !documented.includes(name)),
      [],
      'read by server/src/config.ts but not in the table',
    );
  });
});
