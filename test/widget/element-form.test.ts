import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import 'axe-core';
import { FakeBackend, finalApproved, order, sessionView } from './support/fake-backend.js';
import { flush } from './support/fake-clock.js';
import { fillCard, type Mounted, mount, payButton, typeInto } from './support/mount.js';

// axe-core is a UMD script: imported for its side effect, it sets window.axe.
const axe = (globalThis as unknown as { axe: typeof import('axe-core') }).axe;

let m: Mounted | undefined;
afterEach(() => m?.stop());

describe('<pay-checkout> form', () => {
  it('is registered and typed in HTMLElementTagNameMap', () => {
    expect(customElements.get('pay-checkout')).to.be.a('function');
    const el: HTMLElementTagNameMap['pay-checkout'] = document.createElement('pay-checkout');
    expect(el.mode).to.equal('direct');
    expect(el.challenge).to.equal('auto');
  });

  it('loads the session with the bearer token and announces pay-ready', async () => {
    m = await mount();
    const [req] = m.backend.requests('GET /widget/session');
    expect(req!.headers.authorization).to.equal('Bearer tok-123');
    expect(req!.headers.accept).to.equal(undefined);
    expect(m.of('pay-ready')).to.deep.equal([
      { orderId: 'order-1042', amount: '10.42', currency: 'EUR', mode: 'direct' },
    ]);
    expect(m.of('pay-status')).to.deep.equal([{ step: 'loading' }, { step: 'ready' }]);
    for (const e of m.events) {
      expect(e.bubbles, e.type).to.equal(true);
      expect(e.composed, e.type).to.equal(true);
    }
  });

  it('renders labelled fields with autocomplete and numeric keyboards', async () => {
    m = await mount();
    const expect_: [string, string, string, string][] = [
      ['number', 'Card number', 'cc-number', 'numeric'],
      ['expiry', 'Expiry date', 'cc-exp', 'numeric'],
      ['cvc', 'Security code', 'cc-csc', 'numeric'],
      ['name', 'Name on card', 'cc-name', 'text'],
    ];
    for (const [name, label, ac, mode] of expect_) {
      const input = m.input(name);
      const lab = m.$(`label[for="${input.id}"]`);
      expect(lab.textContent!.trim()).to.equal(label);
      expect(input.getAttribute('autocomplete')).to.equal(ac);
      expect(input.getAttribute('inputmode')).to.equal(mode);
      expect(input.getAttribute('part')).to.equal(`input input-${name}`);
    }
    expect(payButton(m).textContent!.trim()).to.equal('Pay €10.42');
    expect(payButton(m).getAttribute('part')).to.equal('button');
  });

  it('themes from custom properties: the focus ring takes the primary colour unless it has its own', async () => {
    m = await mount({ attrs: { style: '--pay-color-primary: rgb(1, 2, 3)' } });
    const input = m.input('number');
    input.focus();
    const ring = () => getComputedStyle(input).outlineColor;
    expect(ring()).to.equal('rgb(1, 2, 3)');
    expect(getComputedStyle(payButton(m)).backgroundColor).to.equal('rgb(1, 2, 3)');
    m.el.style.setProperty('--pay-color-focus', 'rgb(4, 5, 6)');
    expect(ring()).to.equal('rgb(4, 5, 6)');
    expect(getComputedStyle(payButton(m)).backgroundColor).to.equal('rgb(1, 2, 3)');
  });

  it('speaks Russian and formats the amount for the locale', async () => {
    m = await mount({ attrs: { locale: 'ru-RU' } });
    expect(m.$('label[for="in-number"]').textContent!.trim()).to.equal('Номер карты');
    expect(m.$('label[for="in-cvc"]').textContent!.trim()).to.equal('Код безопасности');
    const text = payButton(m).textContent!.trim().replace(/\s/g, ' ');
    expect(text).to.equal(
      `Оплатить ${new Intl.NumberFormat('ru-RU', { style: 'currency', currency: 'EUR' }).format(10.42).replace(/\s/g, ' ')}`,
    );
    expect(text).to.match(/^Оплатить 10,42 €$/);
  });

  it('formats the number as typed with a real keyboard, detects the brand, and emits pay-change', async () => {
    m = await mount();
    m.input('number').focus();
    await sendKeys({ type: '378282246310005' });
    await m.el.updateComplete;
    expect(m.input('number').value).to.equal('3782 822463 10005');
    expect(m.$('[part="brand"]').textContent).to.equal('American Express');
    const last = m.of('pay-change').at(-1);
    expect(last).to.deep.equal({
      complete: false,
      brand: 'amex',
      fields: { number: true, expiry: false, cvc: false, name: false },
    });
    // Backspace works through the spaces.
    await sendKeys({ press: 'Backspace' });
    await sendKeys({ press: 'Backspace' });
    expect(m.input('number').value).to.equal('3782 822463 100');
    // Nothing in any event carries the number.
    expect(JSON.stringify(m.events)).not.to.contain('822463');
  });

  it('accepts a pasted formatted number, expiry with a four-digit year', async () => {
    m = await mount();
    typeInto(m.input('number'), '4242-4242-4242-4242', 'insertFromPaste');
    typeInto(m.input('expiry'), '12/2030', 'insertFromPaste');
    await m.el.updateComplete;
    expect(m.input('number').value).to.equal('4242 4242 4242 4242');
    expect(m.input('expiry').value).to.equal('12/30');
    expect(m.$('[part="brand"]').textContent).to.equal('Visa');
  });

  it('keeps the year of an expiry the browser inserts as MM/YYYY (autofill, paste)', async () => {
    m = await mount();
    m.input('expiry').focus();
    // The browser's own editing path, which applies the input's maxlength as autofill does.
    document.execCommand('insertText', false, '12/2030');
    await m.el.updateComplete;
    expect(m.input('expiry').value).to.equal('12/30');
    m.input('expiry').select();
    document.execCommand('insertText', false, '1 / 2031');
    expect(m.input('expiry').value).to.equal('01/31');
  });

  it('keeps the digits of a security code the browser inserts with spaces, to the brand’s length', async () => {
    m = await mount();
    const cvc = m.input('cvc');
    cvc.focus();
    document.execCommand('insertText', false, ' 123');
    expect(cvc.value).to.equal('123');
    document.execCommand('insertText', false, '4');
    expect(cvc.value, 'three digits until the card is an Amex').to.equal('123');
    typeInto(m.input('number'), '3782 822463 10005', 'insertFromPaste');
    await m.el.updateComplete;
    cvc.focus();
    cvc.select();
    document.execCommand('insertText', false, ' 1234 5');
    expect(cvc.value).to.equal('1234');
    expect(cvc.hasAttribute('maxlength')).to.equal(false);
  });

  it('types the expiry as MM/YY', async () => {
    m = await mount();
    m.input('expiry').focus();
    await sendKeys({ type: '0' });
    await sendKeys({ type: '9' });
    expect(m.input('expiry').value).to.equal('09/');
    await sendKeys({ type: '31' });
    expect(m.input('expiry').value).to.equal('09/31');
    await sendKeys({ press: 'Backspace' });
    await sendKeys({ press: 'Backspace' });
    // The slash is not put back while deleting, so backspace gets past it.
    expect(m.input('expiry').value).to.equal('09');
    await sendKeys({ press: 'Backspace' });
    expect(m.input('expiry').value).to.equal('0');
  });

  it('on an invalid submit: errors on each field, tied by aria-describedby, announced, focus on the first', async () => {
    m = await mount();
    typeInto(m.input('number'), '4242 4242 4242 4241');
    typeInto(m.input('expiry'), '01/20');
    await m.el.updateComplete;
    payButton(m).click();
    await m.until('pay-error');
    await m.el.updateComplete;
    const errs = {
      number: 'This card number is not valid.',
      expiry: 'This card has expired.',
      cvc: 'Enter the security code.',
      name: 'Enter the name as printed on the card.',
    };
    for (const [f, msg] of Object.entries(errs)) {
      const input = m.input(f);
      expect(input.getAttribute('aria-invalid')).to.equal('true');
      const ids = input.getAttribute('aria-describedby')!.split(' ');
      expect(ids).to.include(`err-${f}`);
      expect(m.$(`#err-${f}`).textContent).to.equal(msg);
    }
    expect(m.root.activeElement).to.equal(m.input('number'));
    expect(m.$('[role="status"]').getAttribute('aria-live')).to.equal('polite');
    expect(m.$('[role="status"]').textContent).to.equal(
      'Please correct: Card number, Expiry date, Security code, and Name on card.',
    );
    expect(m.of('pay-error')).to.deep.equal([
      { code: 'validation', message: errs.number, field: 'number' },
    ]);
    expect(m.backend.requests('POST /widget/pay')).to.have.length(0);
    expect(m.of('pay-submit')).to.have.length(0);
  });

  it('focuses the first invalid field in order (expiry when the number is fine)', async () => {
    m = await mount();
    await fillCard(m, { expiry: '13/30' });
    m.el.submit();
    await m.until('pay-error');
    expect(m.root.activeElement).to.equal(m.input('expiry'));
    expect(m.$('#err-expiry').textContent).to.equal('Enter the expiry date as MM/YY.');
  });

  it('shows the security code length of the brand', async () => {
    m = await mount();
    await fillCard(m, { number: '3782 822463 10005', cvc: '123' });
    m.el.submit();
    await m.until('pay-error');
    expect(m.$('#err-cvc').textContent).to.equal('The security code has 4 digits.');
  });

  it('sends exactly the card and browser fields, disables the form and refuses a second submit', async () => {
    m = await mount();
    let release: () => void = () => {};
    m.backend.on(
      'POST /widget/pay',
      () => new Promise((r) => (release = () => r({ json: finalApproved() }))),
    );
    await fillCard(m, {
      number: '4242 4242 4242 4242',
      expiry: '12/30',
      cvc: '123',
      name: '  Ada Lovelace ',
    });
    payButton(m).click();
    await m.backend.waitFor('POST /widget/pay');
    await m.el.updateComplete;
    expect(m.$('fieldset').hasAttribute('disabled')).to.equal(true);
    expect(payButton(m).getAttribute('aria-disabled')).to.equal('true');
    expect(payButton(m).textContent!.trim()).to.equal('Processing…');
    expect(m.$('.spinner')).to.exist;
    payButton(m).click();
    m.el.submit();
    await flush();
    expect(m.backend.requests('POST /widget/pay')).to.have.length(1);
    const [req] = m.backend.requests('POST /widget/pay');
    expect(req!.headers['content-type']).to.equal('application/json');
    expect(req!.headers.authorization).to.equal('Bearer tok-123');
    expect(req!.body).to.deep.equal({
      card: {
        number: '4242424242424242',
        expMonth: '12',
        expYear: '2030',
        cvc: '123',
        holder: 'Ada Lovelace',
      },
      browser: {
        colorDepth: screen.colorDepth,
        language: navigator.language,
        screenHeight: screen.height,
        screenWidth: screen.width,
        timezoneOffset: new Date().getTimezoneOffset(),
        challengeWindowSize:
          innerWidth < 460 ? '05' : innerWidth >= 600 && innerHeight >= 700 ? '03' : '02',
      },
    });
    expect(m.of('pay-submit')).to.deep.equal([{ mode: 'direct', brand: 'visa', last4: '4242' }]);
    release();
    await m.until('pay-success');
    await m.el.updateComplete;
    expect(m.of('pay-success')).to.deep.equal([
      {
        orderId: 'order-1042',
        gatewayOrderId: '77001',
        amount: '10.42',
        amountMinor: 1042,
        currency: 'EUR',
        card: { brand: 'visa', last4: '4242', masked: '424242******4242' },
      },
    ]);
    expect(m.$('[part="result"] h2').textContent).to.equal('Payment approved');
    expect(m.root.activeElement).to.equal(m.$('[part="result"] h2'));
    expect(m.$('[role="status"]').textContent).to.equal(
      'Payment approved. €10.42 paid with 424242******4242.',
    );
    // No card data left in the element, in storage or in any event.
    expect(m.root.querySelector('input')).to.equal(null);
    expect(JSON.stringify(m.events)).not.to.contain('4242424242424242');
    expect(JSON.stringify(m.events)).not.to.contain('"123"');
    expect(localStorage.length + sessionStorage.length).to.equal(0);
  });

  it('an explicit challenge-window-size is sent as is', async () => {
    m = await mount({ attrs: { 'challenge-window-size': '04' } });
    m.backend.on('POST /widget/pay', { json: finalApproved() });
    await fillCard(m);
    m.el.submit();
    await m.until('pay-success');
    const body = m.backend.requests('POST /widget/pay')[0]!.body as {
      browser: { challengeWindowSize: string };
    };
    expect(body.browser.challengeWindowSize).to.equal('04');
  });

  it('shows a backend 400 on its field and lets the shopper fix it', async () => {
    m = await mount();
    m.backend.on(
      'POST /widget/pay',
      {
        status: 400,
        json: {
          error: {
            code: 'validation',
            message: 'Card number refused by the bank.',
            field: 'card.number',
          },
        },
      },
      { json: finalApproved() },
    );
    await fillCard(m);
    m.el.submit();
    await m.until('pay-error');
    await m.el.updateComplete;
    expect(m.of('pay-error')).to.deep.equal([
      { code: 'validation', message: 'Card number refused by the bank.', field: 'number' },
    ]);
    expect(m.$('#err-number').textContent).to.equal('Card number refused by the bank.');
    expect(m.$('fieldset').hasAttribute('disabled')).to.equal(false);
    expect(m.root.activeElement).to.equal(m.input('number'));
    typeInto(m.input('number'), '5555 5555 5555 4444');
    m.el.submit();
    await m.until('pay-success');
    expect(
      (m.backend.requests('POST /widget/pay')[1]!.body as { card: { number: string } }).card.number,
    ).to.equal('5555555555554444');
  });

  it('HTTP 401 ends with pay-error session-expired', async () => {
    m = await mount();
    m.backend.on('POST /widget/pay', {
      status: 401,
      json: { error: { code: 'unauthorized', message: 'token expired' } },
    });
    await fillCard(m);
    m.el.submit();
    await m.until('pay-error');
    await m.el.updateComplete;
    expect(m.of('pay-error')).to.deep.equal([
      { code: 'session-expired', message: 'token expired' },
    ]);
    expect(m.$('[part="result"] p').textContent).to.equal(
      'This checkout has expired. Please reload the page.',
    );
  });

  it('an expired session shows the error without a form', async () => {
    const backend = new FakeBackend().on('GET /widget/session', {
      json: sessionView({ state: 'expired' }),
    });
    m = await mount({ backend, ready: false });
    await m.until('pay-error');
    await m.el.updateComplete;
    expect(m.of('pay-error')).to.deep.equal([
      { code: 'session-expired', message: 'session expired' },
    ]);
    expect(m.root.querySelector('input')).to.equal(null);
  });

  it('a declined final gives pay-declined with the gateway reason', async () => {
    m = await mount();
    m.backend.on('POST /widget/pay', {
      json: {
        action: 'final',
        order: order({ status: 'declined', reason: 'Insufficient funds', errorCode: '51' }),
      },
    });
    await fillCard(m);
    m.el.submit();
    await m.until('pay-declined');
    await m.el.updateComplete;
    expect(m.of('pay-declined')).to.deep.equal([
      {
        orderId: 'order-1042',
        status: 'declined',
        reason: 'Insufficient funds',
        errorCode: '51',
        attemptsLeft: 0,
      },
    ]);
    expect(m.$('[part="result"] h2').textContent).to.equal('Payment declined');
    expect(m.of('pay-status').at(-1)).to.deep.equal({
      step: 'final',
      orderId: 'order-1042',
      status: 'declined',
    });
  });

  it('filtered and error finals are declines too', async () => {
    for (const status of ['filtered', 'error'] as const) {
      m?.stop();
      m = await mount();
      m.backend.on('POST /widget/pay', {
        json: { action: 'final', order: order({ status, reason: 'Fraud filter' }) },
      });
      await fillCard(m);
      m.el.submit();
      await m.until('pay-declined');
      expect(m.of('pay-declined')).to.deep.equal([
        { orderId: 'order-1042', status, reason: 'Fraud filter', attemptsLeft: 0 },
      ]);
    }
  });

  it('submits with Enter from any field (keyboard only)', async () => {
    m = await mount();
    m.backend.on('POST /widget/pay', { json: finalApproved() });
    await fillCard(m);
    m.input('name').focus();
    await sendKeys({ press: 'Enter' });
    await m.until('pay-success');
    expect(m.backend.requests('POST /widget/pay')).to.have.length(1);
  });

  it('Tab walks the fields in order, then the button', async () => {
    m = await mount();
    m.input('number').focus();
    const order_: Element[] = [m.input('number')];
    for (let i = 0; i < 4; i++) {
      await sendKeys({ press: 'Tab' });
      order_.push(m.root.activeElement!);
    }
    expect(order_).to.deep.equal([
      m.input('number'),
      m.input('expiry'),
      m.input('cvc'),
      m.input('name'),
      payButton(m),
    ]);
  });

  it('reset() clears the fields and errors', async () => {
    m = await mount();
    typeInto(m.input('number'), '4242');
    m.el.submit();
    await m.until('pay-error');
    m.el.reset();
    await m.until('pay-ready', 2);
    await m.el.updateComplete;
    expect(m.input('number').value).to.equal('');
    expect(m.$('#err-number').textContent).to.equal('');
    expect(m.input('number').getAttribute('aria-invalid')).to.equal('false');
  });

  it('has no axe-core violations: empty, with errors, and in Russian', async () => {
    for (const attrs of [{}, { locale: 'ru' }] as Record<string, string>[]) {
      m?.stop();
      m = await mount({ attrs });
      let res = await axe.run(m.el);
      expect(res.violations.map((v) => v.id)).to.deep.equal([]);
      m.el.submit();
      await m.until('pay-error');
      await m.el.updateComplete;
      res = await axe.run(m.el);
      expect(res.violations.map((v) => v.id)).to.deep.equal([]);
    }
  });

  it('hosted mode: one button, POST /widget/hosted, pay-redirect, then navigation', async () => {
    m = await mount({ attrs: { mode: 'hosted' } });
    m.backend.on('POST /widget/hosted', {
      json: { action: 'redirect', order: order(), url: 'https://gateway.example/hpp/abc' },
    });
    expect(m.root.querySelector('input')).to.equal(null);
    expect(m.of('pay-ready')[0]).to.deep.equal({
      orderId: 'order-1042',
      amount: '10.42',
      currency: 'EUR',
      mode: 'hosted',
    });
    payButton(m).click();
    await m.until('pay-redirect');
    expect(m.backend.requests('POST /widget/hosted')[0]!.body).to.equal(undefined);
    expect(m.of('pay-submit')).to.deep.equal([{ mode: 'hosted', brand: null }]);
    expect(m.of('pay-redirect')).to.deep.equal([
      { url: 'https://gateway.example/hpp/abc', reason: 'hosted' },
    ]);
    expect(m.navigations).to.deep.equal(['https://gateway.example/hpp/abc']);
  });

  it("follows the session's modes: a hosted-only session gets the hosted button, not the card form", async () => {
    const backend = new FakeBackend().on('GET /widget/session', {
      json: sessionView({ modes: ['hosted'] }),
    });
    backend.on('POST /widget/hosted', {
      json: { action: 'redirect', order: order(), url: 'https://gateway.example/hpp/abc' },
    });
    m = await mount({ backend, attrs: { mode: 'direct' } });
    expect(m.root.querySelector('input')).to.equal(null);
    expect(m.el.mode).to.equal('hosted');
    expect(m.of('pay-ready')[0]).to.include({ mode: 'hosted' });
    payButton(m).click();
    await m.until('pay-redirect');
    expect(m.backend.requests('POST /widget/hosted')).to.have.length(1);
    expect(m.backend.requests('POST /widget/pay')).to.have.length(0);
  });

  it("follows the session's modes: a direct-only session shows the card form despite mode=hosted", async () => {
    const backend = new FakeBackend().on('GET /widget/session', {
      json: sessionView({ modes: ['direct'] }),
    });
    m = await mount({ backend, attrs: { mode: 'hosted' } });
    expect(m.el.mode).to.equal('direct');
    expect(m.of('pay-ready')[0]).to.include({ mode: 'direct' });
    expect(m.input('number')).to.not.equal(null);
    payButton(m).click();
    await m.until('pay-error');
    expect(m.backend.requests('POST /widget/hosted')).to.have.length(0);
  });
});
