import { expect } from '@open-wc/testing';
import type { NextAction } from '../../contract/api-types.js';
import { declineReason } from '../../widget/src/i18n/decline-reasons.js';
import {
  checkStrings,
  en,
  fill,
  isRightToLeft,
  LANGUAGES,
  languageOf,
  loadLanguage,
  type StringKey,
  withOverrides,
} from '../../widget/src/i18n/index.js';
import { order } from './helpers/fake-backend.js';
import { fillCard, type Mounted, mount, payButton } from './helpers/mount.js';

const slots = (text: string) => (text.match(/\{\w+\}/g) ?? []).sort().join(' ');
const KEYS = Object.keys(en) as StringKey[];

describe('languages', () => {
  it('a locale picks its language; a region falls back to it, an unknown language to none', () => {
    expect(languageOf('pt-BR')).to.equal('pt');
    expect(languageOf('AR_eg')).to.equal('ar');
    expect(languageOf('kk')).to.equal('kk');
    expect(languageOf('iw-IL')).to.equal('he');
    expect(languageOf('sw-KE')).to.equal(undefined);
    expect(languageOf('')).to.equal(undefined);
    expect(['ar', 'he-IL', 'fa'].map(isRightToLeft)).to.deep.equal([true, true, true]);
    expect(['en', 'ru', 'tr'].map(isRightToLeft)).to.deep.equal([false, false, false]);
  });

  it('every language has every string, each with the slots of its English text', async () => {
    expect(LANGUAGES).to.have.length(16);
    for (const language of LANGUAGES) {
      const strings = await loadLanguage(language);
      expect(Object.keys(strings).sort(), language).to.deep.equal([...KEYS].sort());
      for (const key of KEYS) {
        const text = strings[key];
        expect(text, `${language} ${key}`).to.be.a('string').and.not.equal('');
        expect(slots(text), `${language} ${key}`).to.equal(slots(en[key]));
      }
      if (language !== 'en') expect(strings.number, language).to.not.equal(en.number);
    }
  });

  it('the same language file is fetched once; a file that cannot be fetched gives English', async () => {
    expect(await loadLanguage('de')).to.equal(await loadLanguage('de'));
    // @ts-expect-error: a code with no file, as a stale list or a blocked fetch would give.
    expect(await loadLanguage('xx')).to.equal(en);
  });
});

describe('a merchant’s own strings', () => {
  it('are checked: unknown keys, non-text and changed slots are refused, by name', () => {
    expect(checkStrings({ pay: 'Buy now for {amount}', testMode: 'Sandbox' })).to.deep.equal([]);
    expect(
      checkStrings({
        pay: 'Buy now',
        approvedDetail: '{amount} paid with {card} at {shop}.',
        colour: 'blue',
        payPlain: 42,
      }),
    ).to.deep.equal([
      { key: 'pay', problem: 'slots', expected: '{amount}' },
      { key: 'approvedDetail', problem: 'slots', expected: '{amount} {card}' },
      { key: 'colour', problem: 'unknown-key' },
      { key: 'payPlain', problem: 'not-text' },
    ]);
  });

  it('the usable ones are laid over the language, the refused ones leave its own string', () => {
    const { strings, problems } = withOverrides(en, { pay: 'Buy now', payPlain: 'Buy' });
    expect(strings.pay).to.equal('Pay {amount}');
    expect(strings.payPlain).to.equal('Buy');
    expect(problems.map((p) => p.key)).to.deep.equal(['pay']);
    expect(fill(strings.pay, { amount: '€5.00' })).to.equal('Pay €5.00');
  });
});

describe('decline reasons', () => {
  it('a code the shopper can act on has its words; fraud codes and unknown ones the plain ones', () => {
    expect(declineReason('51')).to.equal('decline.funds');
    expect(declineReason('54')).to.equal('decline.expired');
    expect(declineReason('57')).to.equal('decline.not-permitted');
    expect(declineReason('96')).to.equal('decline.try-later');
    expect(declineReason('43')).to.equal('declinedDetail');
    expect(declineReason('05')).to.equal('declinedDetail');
    expect(declineReason(undefined)).to.equal('declinedDetail');
  });
});

describe('the element in a language', () => {
  let m: Mounted | undefined;
  afterEach(() => {
    m?.stop();
    m = undefined;
  });

  it('Arabic: right to left, Arabic words, the card number, expiry and code left to right', async () => {
    const ar = await loadLanguage('ar');
    m = await mount({ attrs: { locale: 'ar-EG' } });
    const root = m.$('.root');
    expect(root.getAttribute('dir')).to.equal('rtl');
    expect(root.getAttribute('lang')).to.equal('ar');
    expect(getComputedStyle(m.$('form')).direction).to.equal('rtl');
    expect(m.$('label[for="in-number"]').textContent!.trim()).to.equal(ar.number);
    expect(payButton(m).textContent).to.not.include('Pay');
    for (const f of ['number', 'expiry', 'cvc']) {
      expect(m.input(f).getAttribute('dir'), f).to.equal('ltr');
      expect(getComputedStyle(m.input(f)).direction, f).to.equal('ltr');
    }
    expect(m.input('name').hasAttribute('dir')).to.equal(false);
  });

  it('the page’s own dir wins over the language’s', async () => {
    m = await mount({ attrs: { locale: 'he', dir: 'ltr' } });
    expect(m.$('.root').hasAttribute('dir')).to.equal(false);
    expect(getComputedStyle(m.$('form')).direction).to.equal('ltr');
    expect(m.$('.root').getAttribute('lang')).to.equal('he');
  });

  it('shows no English before the language arrives', async () => {
    const de = await loadLanguage('de');
    const seen: string[] = [];
    const el = document.createElement('pay-checkout');
    el.setAttribute('locale', 'de-AT');
    const host = document.createElement('div');
    document.body.append(host);
    host.append(el);
    const record = () => seen.push(el.shadowRoot?.textContent ?? '');
    const observer = new MutationObserver(record);
    observer.observe(el.shadowRoot!, { subtree: true, childList: true, characterData: true });
    record();
    await el.updateComplete;
    await new Promise((r) => setTimeout(r, 50));
    observer.disconnect();
    host.remove();
    expect(seen.join('\n')).to.include(de.number);
    expect(seen.join('\n')).to.not.include(en.number);
  });

  it('a merchant’s words replace the language’s; a broken one is refused with a warning', async () => {
    const warnings: unknown[][] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args);
    try {
      m = await mount({ ready: false });
      m.el.strings = { pay: 'Kaufen für {amount}', payPlain: 'Kaufen {amount}' };
      await m.until('pay-ready');
      await m.el.updateComplete;
      await m.el.updateComplete;
    } finally {
      console.warn = warn;
    }
    expect(payButton(m).textContent!.trim()).to.match(/^Kaufen für /);
    expect(warnings).to.have.length(1);
    expect(JSON.stringify(warnings[0])).to.include('"key":"payPlain"');
  });

  it('a language the element does not speak, with the merchant’s words for it', async () => {
    m = await mount({ ready: false, attrs: { locale: 'sw-KE' } });
    m.el.strings = { number: 'Nambari ya kadi', pay: 'Lipa {amount}' };
    await m.until('pay-ready');
    await m.el.updateComplete;
    expect(m.$('.root').getAttribute('lang')).to.equal('sw-KE');
    expect(m.$('label[for="in-number"]').textContent!.trim()).to.equal('Nambari ya kadi');
    expect(payButton(m).textContent!.trim()).to.match(/^Lipa /);
    // What the merchant left out stays English.
    expect(m.$('label[for="in-cvc"]').textContent!.trim()).to.equal(en.cvc);
  });

  it('a decline reason in the shopper’s language', async () => {
    const pl = await loadLanguage('pl');
    m = await mount({ attrs: { locale: 'pl-PL' } });
    m.backend.on('POST /widget/pay', {
      json: {
        action: 'final',
        order: order({ status: 'declined', errorCode: '51', attemptsLeft: 2 }),
      } satisfies NextAction,
    });
    await fillCard(m);
    payButton(m).click();
    await m.until('pay-declined');
    await m.el.updateComplete;
    expect(m.$('[part="notice"]').textContent).to.equal(`${pl['decline.funds']} ${pl.again}`);
  });
});
