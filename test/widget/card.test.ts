import { expect } from '@open-wc/testing';
import { BRANDS, cvcLength, detectBrand, maxDigits } from '../../contract/card/brands.js';
import { luhnValid } from '../../contract/card/luhn.js';
import { expiryProblem, parseExpiry } from '../../widget/src/card/expiry.js';
import {
  caretAfterDigits,
  digitsOnly,
  formatCardNumber,
  formatExpiry,
} from '../../widget/src/card/format.js';
import {
  cvcProblem,
  nameProblem,
  numberProblem,
  validateCard,
} from '../../widget/src/card/validate.js';

describe('luhn', () => {
  const cases: [string, boolean][] = [
    ['4242424242424242', true],
    ['4242424242424241', false],
    ['378282246310005', true],
    ['0', true],
    ['79927398713', true],
    ['79927398710', false],
    ['', false],
    ['4242 4242', false],
  ];
  for (const [n, ok] of cases)
    it(`${JSON.stringify(n)} -> ${ok}`, () => expect(luhnValid(n)).to.equal(ok));
});

describe('brands', () => {
  // [number, brand, formatted]
  const cards: [string, string, string][] = [
    ['4111111111111111', 'visa', '4111 1111 1111 1111'],
    ['4222222222222', 'visa', '4222 2222 2222 2'],
    ['4000000000000000006', 'visa', '4000 0000 0000 0000 006'],
    ['5555555555554444', 'mastercard', '5555 5555 5555 4444'],
    ['2223003122003222', 'mastercard', '2223 0031 2200 3222'],
    ['6759649826438453', 'maestro', '6759 6498 2643 8453'],
    ['5018000000000009', 'maestro', '5018 0000 0000 0009'],
    ['378282246310005', 'amex', '3782 822463 10005'],
    ['371449635398431', 'amex', '3714 496353 98431'],
    ['6011111111111117', 'discover', '6011 1111 1111 1117'],
    ['3530111333300000', 'jcb', '3530 1113 3330 0000'],
    ['6200000000000005', 'unionpay', '6200 0000 0000 0005'],
    ['36227206271667', 'diners', '3622 720627 1667'],
    ['3056930009020004', 'diners', '3056 930009 020004'],
    ['2201382000000013', 'mir', '2201 3820 0000 0013'],
    ['2200000000000004', 'mir', '2200 0000 0000 0004'],
  ];
  for (const [n, brand, formatted] of cards) {
    it(`${n} is ${brand}, valid, shown as "${formatted}"`, () => {
      expect(detectBrand(n)?.id).to.equal(brand);
      expect(numberProblem(n)).to.equal(undefined);
      expect(formatCardNumber(n)).to.equal(formatted);
    });
  }
  it('covers the nine brands', () => {
    expect(BRANDS.map((b) => b.id).sort()).to.deep.equal(
      [
        'amex',
        'diners',
        'discover',
        'jcb',
        'maestro',
        'mastercard',
        'mir',
        'unionpay',
        'visa',
      ].sort(),
    );
    expect(new Set(cards.map((c) => c[1])).size).to.equal(9);
  });
  const prefixes: [string, string | undefined][] = [
    ['4', 'visa'],
    ['51', 'mastercard'],
    ['2221', 'mastercard'],
    ['2720', 'mastercard'],
    ['2721', undefined],
    ['2204', 'mir'],
    ['2205', undefined],
    ['34', 'amex'],
    ['37', 'amex'],
    ['36', 'diners'],
    ['300', 'diners'],
    ['3528', 'jcb'],
    ['3527', undefined],
    ['6011', 'discover'],
    ['65', 'discover'],
    ['62', 'unionpay'],
    ['81', 'unionpay'],
    ['6304', 'maestro'],
    ['50', 'maestro'],
    ['1', undefined],
    ['', undefined],
  ];
  for (const [p, brand] of prefixes)
    it(`prefix "${p}" -> ${brand}`, () => expect(detectBrand(p)?.id).to.equal(brand));

  it('security code length per brand', () => {
    expect(cvcLength(detectBrand('37'))).to.equal(4);
    expect(cvcLength(detectBrand('4'))).to.equal(3);
    expect(cvcLength(undefined)).to.equal(3);
    expect(maxDigits(detectBrand('37'))).to.equal(15);
    expect(maxDigits(undefined)).to.equal(19);
  });

  it('rejects wrong lengths and Luhn failures, and skips Luhn for UnionPay only', () => {
    expect(numberProblem('424242424242424')).to.equal('invalid'); // 15 digits
    expect(numberProblem('4242424242424241')).to.equal('invalid'); // Luhn
    expect(numberProblem('37828224631000')).to.equal('invalid'); // Amex 14
    expect(numberProblem('6200000000000001')).to.equal(undefined); // UnionPay, fails Luhn
    expect(numberProblem('')).to.equal('required');
    // No brand known: any 12-19 digit number passing Luhn goes on; the gateway knows more brands.
    expect(numberProblem('1000000000000008')).to.equal(undefined);
    expect(numberProblem('1000000000000001')).to.equal('invalid');
  });
});

describe('formatting', () => {
  it('number: strips what is not a digit and cuts at the brand maximum', () => {
    expect(digitsOnly(' 4242-4242 x')).to.equal('42424242');
    expect(formatCardNumber('4242-4242-4242-4242')).to.equal('4242 4242 4242 4242');
    expect(formatCardNumber('3782 8224 6310 0051 234')).to.equal('3782 822463 10005');
    expect(formatCardNumber('42424')).to.equal('4242 4');
    expect(formatCardNumber('')).to.equal('');
  });
  it('caret follows the digits', () => {
    expect(caretAfterDigits('4242 4242', 4)).to.equal(4);
    expect(caretAfterDigits('4242 4242', 5)).to.equal(6);
    expect(caretAfterDigits('4242 4242', 0)).to.equal(0);
    expect(caretAfterDigits('4242', 9)).to.equal(4);
  });
  const expiry: [string, boolean, string][] = [
    ['1', false, '1'],
    ['12', false, '12/'],
    ['12', true, '12'],
    ['123', false, '12/3'],
    ['1230', false, '12/30'],
    ['4', false, '04/'],
    ['12/2030', false, '12/30'],
    ['1/30', false, '01/30'],
    ['12-31', false, '12/31'],
    ['12/305', false, '12/30'],
  ];
  for (const [input, deleting, out] of expiry) {
    it(`expiry "${input}"${deleting ? ' (deleting)' : ''} -> "${out}"`, () =>
      expect(formatExpiry(input, deleting)).to.equal(out));
  }
});

describe('expiry', () => {
  const now = new Date(2026, 5, 15); // June 2026
  const cases: [string, string | undefined][] = [
    ['06/26', undefined],
    ['05/26', 'past'],
    ['12/25', 'past'],
    ['01/27', undefined],
    ['13/27', 'invalid'],
    ['00/27', 'invalid'],
    ['1/27', 'invalid'],
    ['12/47', 'invalid'],
    ['12/46', undefined],
    ['', 'required'],
  ];
  for (const [v, problem] of cases)
    it(`"${v}" in June 2026 -> ${problem}`, () => expect(expiryProblem(v, now)).to.equal(problem));
  it('parses month and four-digit year', () => {
    expect(parseExpiry('07/31')).to.deep.equal({ month: '07', year: '2031' });
    expect(parseExpiry('7/31')).to.equal(undefined);
  });
});

describe('validateCard', () => {
  const now = new Date(2026, 5, 15);
  it('returns one problem per bad field', () => {
    expect(
      validateCard(
        { number: '4242 4242 4242 4242', expiry: '12/30', cvc: '123', name: 'Ada' },
        now,
      ),
    ).to.deep.equal({});
    expect(
      validateCard({ number: '4242', expiry: '01/20', cvc: '', name: ' ' }, now),
    ).to.deep.equal({
      number: 'invalid',
      expiry: 'past',
      cvc: 'required',
      name: 'required',
    });
  });
  it('checks the security code length against the brand', () => {
    expect(cvcProblem('123', detectBrand('378282246310005'))).to.equal('invalid');
    expect(cvcProblem('1234', detectBrand('378282246310005'))).to.equal(undefined);
    expect(cvcProblem('1234', detectBrand('4242424242424242'))).to.equal('invalid');
    expect(cvcProblem('12a', detectBrand('4242'))).to.equal('invalid');
    // A brand not known (a saved card the gateway names no brand for): 3 or 4 digits.
    expect(cvcProblem('1234', undefined)).to.equal(undefined);
    expect(cvcProblem('123', undefined)).to.equal(undefined);
    expect(cvcProblem('12', undefined)).to.equal('invalid');
    // Empty: required, unless the session lets a saved card pay without one.
    expect(cvcProblem('', detectBrand('4242'))).to.equal('required');
    expect(cvcProblem('', detectBrand('4242'), true)).to.equal(undefined);
  });
  it('name', () => {
    expect(nameProblem('A')).to.equal('invalid');
    expect(nameProblem('Ada L')).to.equal(undefined);
  });
});
