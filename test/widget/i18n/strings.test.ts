import { expect } from '@open-wc/testing';
import { fill } from '../../../widget/src/i18n/fill.js';
import { checkStrings, en, withOverrides } from '../../../widget/src/i18n/index.js';

describe('a merchant’s plural strings', () => {
  it('are taken: a plural block counts as its slot; a plain text with the slot is taken too', () => {
    expect(
      checkStrings({
        'cvc.invalid':
          'Enter {n, plural, one {the # digit} =4 {all four digits} other {# digits}}.',
      }),
    ).to.deep.equal([]);
    expect(checkStrings({ 'cvc.invalid': 'Enter {n} digits.' })).to.deep.equal([]);
    // Every form CLDR names, with spaces as translators' tools write them.
    expect(
      checkStrings({
        'cvc.invalid':
          'Code: { n , plural , zero {#} one {#} two {#} few {#} many {#} other {#} }.',
      }),
    ).to.deep.equal([]);
  });

  it('are refused without an other form, or when the block does not parse', () => {
    expect(
      checkStrings({
        'cvc.invalid': 'Enter {n, plural, one {# digit}}.',
        pay: 'Pay {amount, plural, one {#} others {#}}',
        approvedPlain: '{amount, plural, one {# paid} other {# paid}',
        'cvc.required': 'Enter {n, plural, one {# digit} other {# digits}}.',
        approvedDetail: '{amount} with {count, plural, one {# card} other {# cards}}.',
      }),
    ).to.deep.equal([
      { key: 'cvc.invalid', problem: 'plural' },
      { key: 'pay', problem: 'plural' },
      // An unclosed block is no slot: `{amount}` is missing.
      { key: 'approvedPlain', problem: 'slots', expected: '{amount}' },
      // A plural invents its slot as a plain one would.
      { key: 'cvc.required', problem: 'slots', expected: '' },
      { key: 'approvedDetail', problem: 'slots', expected: '{amount} {card}' },
    ]);
  });

  it('laid over a language, they take the language’s forms', async () => {
    const { strings, problems } = withOverrides(en, {
      'cvc.invalid':
        'Kod ma {n, plural, one {# cyfrę} few {# cyfry} many {# cyfr} other {# cyfry}}.',
    });
    expect(problems).to.deep.equal([]);
    expect([1, 3, 5].map((n) => fill(strings['cvc.invalid'], { n }, 'pl'))).to.deep.equal([
      'Kod ma 1 cyfrę.',
      'Kod ma 3 cyfry.',
      'Kod ma 5 cyfr.',
    ]);
  });
});
