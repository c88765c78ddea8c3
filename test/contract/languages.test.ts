/**
 * How a locale picks a language: the tag is anyone's (Accept-Language, a page's `lang`, the
 * element's `locale`), so names of Object.prototype are tags like any other (round 4, R4-L2: a
 * `constructor` tag was a 500 on the launcher and return pages).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isRightToLeft, languageOf } from '../../contract/languages.js';

test('a region falls back to its language, an old code to its new one', () => {
  assert.equal(languageOf('pt-BR'), 'pt');
  assert.equal(languageOf('de_CH'), 'de');
  assert.equal(languageOf('iw'), 'he');
  assert.equal(languageOf('IW-il'), 'he');
});

test('a language we do not speak, or no tag at all, is undefined', () => {
  assert.equal(languageOf('fa'), undefined);
  assert.equal(languageOf(''), undefined);
  assert.equal(languageOf('../../x'), undefined);
});

test("names of Object.prototype are languages we do not speak, never the prototype's members", () => {
  for (const tag of [
    'constructor',
    'constructor-x',
    '__proto__',
    'toString',
    'hasOwnProperty',
    'valueOf',
  ]) {
    assert.equal(languageOf(tag), undefined, tag);
    assert.equal(isRightToLeft(tag), false, tag);
  }
});
