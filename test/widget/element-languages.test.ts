import { expect } from '@open-wc/testing';
import type { NextAction } from '../../contract/api-types.js';
import { en, loadLanguage } from '../../widget/src/i18n/index.js';
import { order } from './support/fake-backend.js';
import { fillCard, type Mounted, mount, payButton } from './support/mount.js';

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
    // Until the German words show (the language file may take a moment on a busy machine).
    for (let i = 0; i < 100 && !seen.join('\n').includes(de.number); i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
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
        order: order({
          status: 'declined',
          errorCode: '51',
          declineReason: 'funds',
          attemptsLeft: 2,
        }),
      } satisfies NextAction,
    });
    await fillCard(m);
    payButton(m).click();
    await m.until('pay-declined');
    await m.el.updateComplete;
    expect(m.$('[part="notice"]').textContent).to.equal(`${pl['decline.funds']} ${pl.again}`);
  });
});
