import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  fromMinorUnits,
  SigningError,
  toControlCents,
  toMinorUnits,
} from '../../../server/src/signing/index.js';

describe('toMinorUnits', () => {
  const exact: [string, string, number][] = [
    ['10.42', 'EUR', 1042],
    ['10.00', 'USD', 1000],
    ['10', 'USD', 1000],
    ['10.5', 'USD', 1050],
    ['0.94', 'USD', 94],
    ['10.15', 'USD', 1015],
    ['0.29', 'EUR', 29], // 0.29 * 100 is 28.999999999999996 in floats
    ['19.99', 'EUR', 1999], // 19.99 * 100 is 1998.9999999999998 in floats
    ['0.99', 'EUR', 99],
    ['0', 'EUR', 0],
    ['500', 'JPY', 500],
    ['1.5', 'KWD', 1500],
    ['1.234', 'KWD', 1234],
    ['007.10', 'GBP', 710],
  ];
  for (const [amount, currency, minor] of exact) {
    test(`${amount} ${currency} is ${minor}`, () => {
      assert.equal(toMinorUnits(amount, currency), minor);
    });
  }

  const refused: [string, string, string][] = [
    ['-1.00', 'EUR', 'invalid-amount'],
    ['+1.00', 'EUR', 'invalid-amount'],
    ['1e3', 'EUR', 'invalid-amount'],
    ['1.0e1', 'EUR', 'invalid-amount'],
    ['10.123', 'EUR', 'invalid-amount'],
    ['500.5', 'JPY', 'invalid-amount'],
    ['1.2345', 'KWD', 'invalid-amount'],
    ['', 'EUR', 'invalid-amount'],
    ['.5', 'EUR', 'invalid-amount'],
    ['5.', 'EUR', 'invalid-amount'],
    [' 5', 'EUR', 'invalid-amount'],
    ['1,00', 'EUR', 'invalid-amount'],
    ['NaN', 'EUR', 'invalid-amount'],
    ['0x10', 'EUR', 'invalid-amount'],
    ['99999999999999999999', 'EUR', 'invalid-amount'],
    ['10.00', 'XYZ', 'unknown-currency'],
    ['10.00', 'eur', 'unknown-currency'],
  ];
  for (const [amount, currency, code] of refused) {
    test(`refuses "${amount}" ${currency} with ${code}`, () => {
      assert.throws(
        () => toMinorUnits(amount, currency),
        (error: unknown) => error instanceof SigningError && error.code === code,
      );
    });
  }
});

describe('fromMinorUnits', () => {
  const cases: [number, string, string][] = [
    [1042, 'EUR', '10.42'],
    [5, 'EUR', '0.05'],
    [0, 'EUR', '0.00'],
    [100, 'USD', '1.00'],
    [500, 'JPY', '500'],
    [1500, 'KWD', '1.500'],
    [7, 'KWD', '0.007'],
  ];
  for (const [minor, currency, text] of cases) {
    test(`${minor} ${currency} is "${text}" and back`, () => {
      assert.equal(fromMinorUnits(minor, currency), text);
      assert.equal(toMinorUnits(text, currency), minor);
    });
  }

  test('refuses negative and fractional minor units', () => {
    assert.throws(() => fromMinorUnits(-1, 'EUR'), SigningError);
    assert.throws(() => fromMinorUnits(1.5, 'EUR'), SigningError);
  });
});

describe('toControlCents: the amount × 100 for every currency (scheme A rule 3)', () => {
  const exact: [string, string][] = [
    ['10.00', '1000'], // the spec's own example
    ['10.42', '1042'],
    ['0.94', '94'],
    ['10.15', '1015'],
    ['0.29', '29'], // 0.29 * 100 is 28.999999999999996 in floats
    ['19.99', '1999'], // 19.99 * 100 is 1998.9999999999998 in floats
    ['0.05', '5'],
    ['0', '0'],
    ['10', '1000'],
    ['10.5', '1050'],
    ['500', '50000'], // JPY: no decimals on the wire, still × 100 in the control
    ['1.500', '150'], // KWD: three decimals on the wire, × 100 in the control
    ['1.230', '123'],
    ['007.10', '710'],
  ];
  for (const [amount, cents] of exact) {
    test(`"${amount}" is "${cents}"`, () => {
      assert.equal(toControlCents(amount), cents);
    });
  }

  const refused: [string, string][] = [
    ['1.234', 'is not a whole number of cents'], // KWD 1.234 would be 123.4: refused, not rounded
    ['1.505', 'is not a whole number of cents'],
    ['0.001', 'is not a whole number of cents'],
    ['-1.00', 'is not a plain decimal number'],
    ['1e3', 'is not a plain decimal number'],
    ['', 'is not a plain decimal number'],
    ['.5', 'is not a plain decimal number'],
    ['99999999999999999999', 'is too large'],
  ];
  for (const [amount, why] of refused) {
    test(`refuses "${amount}": ${why}`, () => {
      assert.throws(
        () => toControlCents(amount),
        (error: unknown) =>
          error instanceof SigningError &&
          error.code === 'invalid-amount' &&
          error.message.includes(why),
      );
    });
  }
});
