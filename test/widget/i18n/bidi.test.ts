/**
 * Left-to-right runs in right-to-left text, read back from Chromium's layout: the masked card
 * number on the success screen and a currency written with Latin letters keep their own order in
 * Arabic and Hebrew (the review found "0002******400000" on screen for 400000******0002).
 */
import { expect } from '@open-wc/testing';
import type { NextAction } from '../../../contract/api-types.js';
import { loadLanguage } from '../../../widget/src/i18n/index.js';
import { FakeBackend, order, sessionView } from '../support/fake-backend.js';
import { fillCard, type Mounted, mount, payButton } from '../support/mount.js';

let m: Mounted | undefined;
afterEach(() => {
  m?.stop();
  m = undefined;
});

/**
 * The characters of `run` inside `el`'s text, in the order they stand on screen from left to
 * right: each character's box, sorted by its left edge.
 */
function onScreen(el: Element, run: string): string {
  const node = [...el.childNodes].find((n) => n.textContent!.includes(run))!;
  const at = node.textContent!.indexOf(run);
  const range = document.createRange();
  const boxes = [...run].map((char, i) => {
    range.setStart(node, at + i);
    range.setEnd(node, at + i + 1);
    return { char, left: range.getBoundingClientRect().left };
  });
  return boxes
    .sort((a, b) => a.left - b.left)
    .map((b) => b.char)
    .join('');
}

/** Pays in `locale` and ends approved, the backend naming the card `masked`. */
async function approvedIn(locale: string, masked: string): Promise<HTMLElement> {
  const backend = new FakeBackend().on('GET /widget/session', {
    json: sessionView({ amount: '1234.50', currency: 'USD' }),
  });
  m = await mount({ backend, attrs: { locale } });
  m.backend.on('POST /widget/pay', {
    json: {
      action: 'final',
      order: order({
        status: 'approved',
        amount: '1234.50',
        currency: 'USD',
        card: { brand: 'visa', last4: '0002', masked },
      }),
    } satisfies NextAction,
  });
  await fillCard(m, { number: '4000 0000 0000 0002' });
  payButton(m).click();
  await m.until('pay-success');
  await m.el.updateComplete;
  return m.$('.result p');
}

describe('left-to-right runs in right-to-left text', () => {
  for (const locale of ['ar', 'he-IL']) {
    it(`${locale}: the approved card reads 400000******0002, in its own order`, async () => {
      const detail = await approvedIn(locale, '400000******0002');
      expect(getComputedStyle(detail).direction).to.equal('rtl');
      // On screen.
      expect(onScreen(detail, '400000******0002')).to.equal('400000******0002');
      // In the text: the card isolated (U+2068 FSI … U+2069 PDI), the sentence the language's.
      expect(detail.textContent).to.include('\u2068400000******0002\u2069');
      expect(detail.textContent).to.include(
        (await loadLanguage(locale === 'ar' ? 'ar' : 'he')).approvedDetail.split('{')[0],
      );
    });

    it(`${locale}: a card the gateway named, "**** 0002", stays so`, async () => {
      const detail = await approvedIn(locale, '**** 0002');
      expect(onScreen(detail, '**** 0002')).to.equal('**** 0002');
    });
  }

  it('ar: the amount on the button and in the result shows "US$" after its Latin digits', async () => {
    const detail = await approvedIn('ar', '400000******0002');
    expect(detail.textContent).to.not.match(/[\u0660-\u0669]/);
    expect(onScreen(detail, 'US$')).to.equal('US$');
    // The number keeps its own order too.
    expect(onScreen(detail, '1,234.50')).to.equal('1,234.50');
  });
});
