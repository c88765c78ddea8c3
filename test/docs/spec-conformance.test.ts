/**
 * docs/spec-conformance.md cannot rot: every test file and test title a row names exists, every
 * source file it names exists, every row has a test or says "not implemented", and every
 * numbered statement of the spec has its row.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

const ROOT = new URL('../../', import.meta.url);
const MAP = readFileSync(new URL('docs/spec-conformance.md', ROOT), 'utf8');

interface Row {
  line: number;
  cells: string[];
}

/** The body rows of every Markdown table (the header and separator lines skipped). */
function tableRows(markdown: string): Row[] {
  const lines = markdown.split('\n');
  const rows: Row[] = [];
  lines.forEach((text, index) => {
    if (!text.startsWith('|') || /^\|[-| ]+\|$/.test(text)) return;
    if (/^\|[-| ]+\|$/.test(lines[index + 1] ?? '')) return;
    rows.push({
      line: index + 1,
      cells: text
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    });
  });
  return rows;
}

const TEST_REF = /`(test\/[^`]+\.test\.ts)`(?:\s*›\s*"([^"]+)")?/g;
const CODE_REF = /`((?:server|widget)\/src\/[^`]+?\.ts)`/g;

const rows = tableRows(MAP);
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');

describe('docs/spec-conformance.md', () => {
  test('has rows', () => {
    assert.ok(rows.length > 100, `only ${rows.length} rows`);
  });

  test('every named test file exists and holds the named title', () => {
    const problems: string[] = [];
    for (const row of rows) {
      for (const [, file, title] of row.cells.at(-1)!.matchAll(TEST_REF)) {
        if (!existsSync(new URL(file!, ROOT))) {
          problems.push(`line ${row.line}: no test file ${file}`);
        } else if (title && !read(file!).includes(title)) {
          problems.push(`line ${row.line}: ${file} has no test titled "${title}"`);
        }
      }
    }
    assert.deepEqual(problems, []);
  });

  test('every named source file exists', () => {
    const problems: string[] = [];
    for (const row of rows) {
      for (const [, file] of row.cells.join(' ').matchAll(CODE_REF)) {
        if (!existsSync(new URL(file!, ROOT))) problems.push(`line ${row.line}: no file ${file}`);
      }
    }
    assert.deepEqual(problems, []);
  });

  test('every row names a test, or says not implemented and why', () => {
    const bare = rows.filter((row) => {
      const tested = [...row.cells.at(-1)!.matchAll(TEST_REF)].length > 0;
      const declined = row.cells.some((cell) => /^not implemented: \S/.test(cell));
      return !tested && !declined;
    });
    assert.deepEqual(
      bare.map((row) => `line ${row.line}: ${row.cells[0]}`),
      [],
    );
  });

  test("every numbered statement of the spec's lists has a row", () => {
    const labels = new Set(rows.map((row) => row.cells[0]));
    const expected = [
      ...[1, 2, 3, 4, 5, 6, 7].map((n) => `Rule ${n}`),
      ...[1, 2, 3, 4, 5].map((n) => `Scheme A ${n}`),
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => `Scheme B ${n}`),
      ...[1, 2, 3, 4, 5, 6, 7].map((n) => `Scheme C ${n}`),
      ...[1, 2, 3, 4].map((n) => `Events ${n}`),
      ...[1, 2, 3, 4, 5].map((n) => `Versioning ${n}`),
      ...[1, 2, 3, 4, 5, 6].map((n) => `Payments behaviour ${n}`),
      ...[1, 2, 3].map((n) => `Card refs behaviour ${n}`),
      ...[1, 2, 3, 4].map((n) => `Payouts behaviour ${n}`),
      '400 / Errors rule 1',
      '500 / Errors rule 2',
      ...[3, 4, 5].map((n) => `Errors rule ${n}`),
    ];
    assert.deepEqual(
      expected.filter((label) => !labels.has(label)),
      [],
    );
  });

  test('every operation of the spec has its row', () => {
    const labels = new Set(rows.map((row) => row.cells[0]));
    const operations = [
      'upload-cres-result',
      'upload-method-url-result',
      'upload-pares-result',
      'sale',
      'sale-form',
      'preauth',
      'preauth-form',
      'payment-form',
      'capture',
      'void',
      'return',
      'status',
      'account-verification',
      'account-verification-form',
      'create-card-ref',
      'get-card-info',
      'make-rebill',
      'create-card-ref v4',
      'create-recurring-payment',
      'payout',
      'payout-form',
      'payout-check',
      'payout-pay',
    ];
    assert.deepEqual(
      operations.filter((name) => !labels.has(name)),
      [],
    );
  });
});
