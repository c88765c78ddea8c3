import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CONTROL_CHARACTER,
  controlCharacterPath,
} from '../../../server/src/checkout/control-characters.js';

describe('controlCharacterPath', () => {
  it('names the first string holding a control character by its dotted path', () => {
    assert.equal(controlCharacterPath('a\u0000'), '');
    assert.equal(controlCharacterPath({ a: 'ok', b: { c: ['x', 'y\u0001'] } }), 'b.c.1');
    assert.equal(controlCharacterPath({ a: 'DEL\u007f' }), 'a');
    assert.equal(controlCharacterPath({ 'k\u0000': 'v' }), 'k\u0000');
    assert.equal(controlCharacterPath({ a: 'b\u001f', c: 'd\u0000' }), 'a');
  });

  it('takes tab, LF and CR as text, and numbers, booleans and null as they are', () => {
    assert.equal(
      controlCharacterPath({ a: 'one\ttwo\r\nthree', n: 1, t: true, z: null }),
      undefined,
    );
    assert.equal(controlCharacterPath('\u0080\u00a0é😀'), undefined);
  });

  it('CONTROL_CHARACTER (ids) refuses tab and line breaks too', () => {
    for (const c of ['\t', '\n', '\r', '\u0000', '\u007f']) assert.ok(CONTROL_CHARACTER.test(c));
    assert.ok(!CONTROL_CHARACTER.test('ord-1001 é'));
  });
});
