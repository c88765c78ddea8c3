import { expect } from '@open-wc/testing';
import { formatAmount } from '../../../widget/src/i18n/amount.js';

const RLM = '\u200f';
const NBSP = '\u00a0';
/** A left-to-right isolate: U+2066 LRI … U+2069 PDI. */
const ltr = (run: string) => `\u2066${run}\u2069`;

describe('an amount in the shopper’s locale', () => {
  it('as Intl writes it in left-to-right locales', () => {
    expect(formatAmount('10.42', 'EUR', 'en')).to.equal('€10.42');
    expect(formatAmount('1234.5', 'EUR', 'de-DE')).to.equal(`1.234,50${NBSP}€`);
    expect(formatAmount('1234', 'JPY', 'en-US')).to.equal('¥1,234');
  });

  it('Latin digits everywhere, as in the card data: ar-SA and ar-EG too', () => {
    expect(formatAmount('10.42', 'EUR', 'ar-SA')).to.equal(`${RLM}10.42${NBSP}${ltr('€')}`);
    expect(formatAmount('10.42', 'EGP', 'ar-EG')).to.match(
      /^[^\u0660-\u0669]*10\.42[^\u0660-\u0669]*$/,
    );
  });

  it('right to left, a currency written with Latin letters stays "US$", not "$US"', () => {
    expect(formatAmount('1234.5', 'USD', 'ar')).to.equal(`${RLM}1,234.50${NBSP}${ltr('US$')}`);
    expect(formatAmount('10.42', 'CAD', 'he-IL')).to.include(ltr('CA$'));
  });

  it('Kazakh as Kazakhstan writes it, even where the browser has no Kazakh number data', () => {
    expect(formatAmount('1234.5', 'KZT', 'kk-KZ')).to.equal(`1${NBSP}234,50${NBSP}₸`);
    expect(formatAmount('1234.5', 'KZT', 'kk')).to.equal(`1${NBSP}234,50${NBSP}₸`);
  });

  it('a currency Intl refuses: the amount and its code', () => {
    expect(formatAmount('10.42', 'EURO', 'en')).to.equal('10.42 EURO');
  });
});
