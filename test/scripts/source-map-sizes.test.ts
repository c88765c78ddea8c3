import assert from 'node:assert/strict';
import { test } from 'node:test';
import { piecesBySource, UNMAPPED } from '../../scripts/source-map-sizes.mjs';

test('each piece of the generated code goes to the source of the segment before it', () => {
  // Line 0: col 0 -> x.ts, col 8 -> y.ts. Line 1: no segment (a template literal going on).
  // Line 2: col 0 -> x.ts, col 3 a segment without a source.
  const code = 'var a=1;var b=2;\nxyz\nabcdef';
  const map = { sources: ['x.ts', 'y.ts'], mappings: 'AAAA,QCAA;;ADAA,G' };
  assert.deepEqual(piecesBySource(code, map), [
    { source: 'x.ts', text: 'var a=1;' },
    { source: 'y.ts', text: 'var b=2;\nxyz\n' },
    { source: 'x.ts', text: 'abc' },
    { source: UNMAPPED, text: 'def' },
  ]);
});

test('columns count UTF-16 units and the pieces join to the code', () => {
  const code = '𝄞a;b';
  const map = { sources: ['x.ts', 'y.ts'], mappings: 'AAAA,ICAA' };
  const pieces = piecesBySource(code, map);
  assert.deepEqual(pieces, [
    { source: 'x.ts', text: '𝄞a;' },
    { source: 'y.ts', text: 'b' },
  ]);
  assert.equal(pieces.map((p) => p.text).join(''), code);
});

test('text before the first segment belongs to no source', () => {
  assert.deepEqual(piecesBySource('ab', { sources: ['x.ts'], mappings: 'CAAA' }), [
    { source: UNMAPPED, text: 'a' },
    { source: 'x.ts', text: 'b' },
  ]);
});
