/**
 * The element's contact and billing-address parts (widget/src/shopper/): shown for the session's
 * `collect` groups (less what a chosen saved card knows), prefilled, with the autocomplete tokens
 * browsers fill by, checked per country in the shopper's language, refused fields of the backend
 * on their inputs, and exactly the groups asked sent as `shopper`. Also run on the built CDN file
 * (test/widget/cdn.config.mjs).
 */
import { expect } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import 'axe-core';
import type { SavedCardView, SessionView } from '../../contract/api-types.js';
import { loadLanguage } from '../../widget/src/i18n/index.js';
import { FakeBackend, finalApproved, order, sessionView } from './support/fake-backend.js';
import { fillCard, type Mounted, mount, payButton, typeInto } from './support/mount.js';

const axe = (globalThis as unknown as { axe: typeof import('axe-core') }).axe;

let m: Mounted | undefined;
afterEach(async () => {
  m?.stop();
  m?.el.remove();
  m = undefined;
  await setViewport({ width: 800, height: 600 });
});

const ALL: SessionView['collect'] = ['email', 'phone', 'billingAddress'];

async function withSession(over: Partial<SessionView>, attrs: Record<string, string> = {}) {
  const backend = new FakeBackend().on('GET /widget/session', { json: sessionView(over) });
  return mount({ backend, attrs });
}

/** The names of the shopper inputs shown, in order. */
const shown = (mm: Mounted) =>
  [
    ...mm.root.querySelectorAll<HTMLInputElement>(
      '[part~="contact"] [name], [part~="billing-address"] [name]',
    ),
  ].map((i) => i.name);

const select = (mm: Mounted) => mm.$<HTMLSelectElement>('select[name="country"]');

async function chooseCountry(mm: Mounted, code: string) {
  const s = select(mm);
  s.value = code;
  s.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
  await mm.el.updateComplete;
}

async function fillShopper(mm: Mounted) {
  typeInto(mm.input('email'), 'ada@example.com');
  typeInto(mm.input('phone'), '+49 151 12345678');
  await chooseCountry(mm, 'DE');
  typeInto(mm.input('address1'), 'Hauptstraße 1');
  typeInto(mm.input('city'), 'Berlin');
  typeInto(mm.input('zipCode'), '10115');
  await mm.el.updateComplete;
}

const SHOPPER = {
  email: 'ada@example.com',
  phone: '+49 151 12345678',
  billingAddress: { country: 'DE', address1: 'Hauptstraße 1', city: 'Berlin', zipCode: '10115' },
};

describe('<pay-checkout> asks the shopper what the session lacks', () => {
  it('with nothing to ask (a full customer) it shows no new field and sends no shopper', async () => {
    m = await withSession({ collect: [] });
    expect(shown(m)).to.deep.equal([]);
    expect(m.$('[part~="contact"]')).to.equal(null);
    m.backend.on('POST /widget/pay', { json: finalApproved() });
    await fillCard(m);
    payButton(m).click();
    await m.until('pay-success');
    expect(m.backend.requests('POST /widget/pay')[0]!.body).to.not.have.property('shopper');
  });

  it('asks every group when the session has none, in two parts with legends; the US adds a state', async () => {
    m = await withSession({ collect: ALL, countryHint: 'US' });
    expect(m.$('[part~="contact"] legend').textContent).to.equal('Contact');
    expect(m.$('[part~="billing-address"] legend').textContent).to.equal('Billing address');
    expect(shown(m)).to.deep.equal([
      'email',
      'phone',
      'country',
      'address1',
      'city',
      'zipCode',
      'state',
    ]);
    expect(m.$('label[for="in-zipCode"]').textContent).to.equal('Postal code');
    await chooseCountry(m, 'HK');
    expect(shown(m)).to.not.include('zipCode');
    expect(shown(m)).to.not.include('state');
  });

  it('with only an e-mail from the merchant it asks the rest, not the e-mail', async () => {
    m = await withSession({ collect: ['phone', 'billingAddress'] });
    // No hint: the browser's region (this test browser runs as en-US).
    expect(navigator.languages[0]).to.equal('en-US');
    expect(select(m).value).to.equal('US');
    expect(shown(m)).to.deep.equal(['phone', 'country', 'address1', 'city', 'zipCode', 'state']);
    await chooseCountry(m, 'FR');
    expect(shown(m)).to.deep.equal(['phone', 'country', 'address1', 'city', 'zipCode']);
  });

  it('starts from what the merchant sent (prefill) and their country', async () => {
    m = await withSession({
      collect: ALL,
      prefill: {
        email: 'ada@example.com',
        billingAddress: {
          country: 'CA',
          address1: '1 Main St',
          city: 'Toronto',
          zipCode: 'M5V 2T6',
          state: 'ON',
        },
      },
      countryHint: 'DE',
    });
    expect(m.input('email').value).to.equal('ada@example.com');
    expect(m.input('phone').value).to.equal('');
    expect(select(m).value).to.equal('CA');
    expect(m.input('address1').value).to.equal('1 Main St');
    expect(m.input('zipCode').value).to.equal('M5V 2T6');
    expect(m.input('state').value).to.equal('ON');
  });

  it('the country list: every country, named and sorted in the shopper’s language, the hint chosen', async () => {
    m = await withSession({ collect: ['billingAddress'], countryHint: 'AT' }, { locale: 'de' });
    const options = [...select(m).options];
    expect(options).to.have.length(250);
    expect(options[0]!.value).to.equal('');
    expect(select(m).value).to.equal('AT');
    expect(options.find((o) => o.value === 'AT')!.textContent).to.equal('Österreich');
    const names = options.slice(1).map((o) => o.textContent!);
    expect(names).to.deep.equal([...names].sort(new Intl.Collator('de').compare));
  });

  it('carries the autocomplete tokens, types and input modes browsers fill by', async () => {
    m = await withSession({ collect: ALL, countryHint: 'US' });
    const attrs = (name: string) => {
      const el = m!.$(`[name="${name}"]`);
      return [
        el.localName,
        el.getAttribute('autocomplete'),
        el.getAttribute('type'),
        el.getAttribute('inputmode'),
      ];
    };
    expect(
      ['email', 'phone', 'country', 'address1', 'city', 'zipCode', 'state'].map(attrs),
    ).to.deep.equal([
      ['input', 'email', 'email', null],
      ['input', 'tel', 'tel', null],
      ['select', 'billing country', null, null],
      ['input', 'billing address-line1', 'text', null],
      ['input', 'billing address-level2', 'text', null],
      // A US ZIP may have its +4 after a hyphen: not digits only.
      ['input', 'billing postal-code', 'text', null],
      ['input', 'billing address-level1', 'text', null],
    ]);
    await chooseCountry(m, 'DE');
    expect(m.input('zipCode').getAttribute('inputmode')).to.equal('numeric');
    for (const name of ['email', 'phone', 'country', 'address1', 'city', 'zipCode']) {
      const el = m.$(`[name="${name}"]`);
      expect(m.$(`label[for="${el.id}"]`), name).to.not.equal(null);
      expect(el.getAttribute('aria-describedby'), name).to.equal(`err-${name}`);
    }
  });

  for (const [locale, summary, error] of [
    ['en', 'Please correct: Postal code.', 'This postal code does not fit the country.'],
    ['de', undefined, undefined],
  ] as const) {
    it(`a postal code that does not fit the country is refused on its field (${locale})`, async () => {
      const words = await loadLanguage(locale);
      m = await withSession({ collect: ['billingAddress'], countryHint: 'DE' }, { locale });
      typeInto(m.input('address1'), 'Hauptstraße 1');
      typeInto(m.input('city'), 'Berlin');
      typeInto(m.input('zipCode'), '1011');
      await fillCard(m);
      payButton(m).click();
      await m.until('pay-error');
      await m.el.updateComplete;
      const zip = m.input('zipCode');
      expect(m.$('#err-zipCode').textContent).to.equal(error ?? words['zipCode.invalid']);
      expect(zip.getAttribute('aria-invalid')).to.equal('true');
      expect(m.root.activeElement).to.equal(zip);
      expect(m.$('[role="status"]').textContent).to.equal(
        summary ?? words.fixErrors.replace('{fields}', words.zipCode),
      );
      expect(m.of('pay-error')).to.deep.equal([
        { code: 'validation', message: words['zipCode.invalid'], field: 'zipCode' },
      ]);
      expect(m.backend.requests('POST /widget/pay')).to.have.length(0);
      // Fixed, the error goes as it is typed.
      typeInto(zip, '10115');
      await m.el.updateComplete;
      expect(m.$('#err-zipCode').textContent).to.equal('');
    });
  }

  it('every empty field says what it wants; a bad e-mail, phone and state too', async () => {
    m = await withSession({ collect: ALL, countryHint: 'US' });
    m.el.submit();
    await m.until('pay-error');
    await m.el.updateComplete;
    const errors = () =>
      ['email', 'phone', 'address1', 'city', 'zipCode', 'state'].map(
        (f) => m!.$(`#err-${f}`).textContent,
      );
    expect(errors()).to.deep.equal([
      'Enter your email.',
      'Enter your phone number.',
      'Enter your street address.',
      'Enter your city.',
      'Enter your postal code.',
      'Enter your state or province.',
    ]);
    typeInto(m.input('email'), 'ada@example');
    typeInto(m.input('phone'), '12');
    typeInto(m.input('state'), 'C');
    await m.el.updateComplete;
    expect(errors().slice(0, 2)).to.deep.equal([
      'Enter an email such as name@example.com.',
      'This phone number is not valid.',
    ]);
    expect(m.$('#err-state').textContent).to.equal('Enter the two-letter code, such as CA.');
  });

  it('sends exactly the groups asked, each whole, with the typed card', async () => {
    m = await withSession({ collect: ALL });
    m.backend.on('POST /widget/pay', { json: finalApproved() });
    await fillShopper(m);
    await fillCard(m);
    payButton(m).click();
    await m.until('pay-success');
    const body = m.backend.requests('POST /widget/pay')[0]!.body as Record<string, unknown>;
    expect(body.shopper).to.deep.equal(SHOPPER);
    expect(Object.keys(body).sort()).to.deep.equal(['browser', 'card', 'shopper']);
  });

  it('a saved card is not asked what its first payment gave; another card is', async () => {
    const card: SavedCardView = {
      handle: 'h-visa',
      brand: 'VISA',
      brandId: 'visa',
      last4: '4242',
      expMonth: '12',
      expYear: '2030',
      holder: 'ADA LOVELACE',
      expired: false,
      knows: ['email', 'billingAddress'],
    };
    m = await withSession({ collect: ALL, savedCards: [card], savedCardCvc: 'required' });
    expect(shown(m)).to.deep.equal(['phone']);
    m.root.querySelectorAll<HTMLInputElement>('input[name="saved"]')[1]!.click();
    await m.el.updateComplete;
    expect(shown(m)).to.include.members(['email', 'phone', 'country', 'address1', 'city']);
    m.root.querySelectorAll<HTMLInputElement>('input[name="saved"]')[0]!.click();
    await m.el.updateComplete;
    typeInto(m.input('phone'), '+49 151 12345678');
    typeInto(m.input('cvc'), '123');
    m.backend.on('POST /widget/pay', { json: finalApproved() });
    payButton(m).click();
    await m.until('pay-success');
    expect(m.backend.requests('POST /widget/pay')[0]!.body).to.deep.include({
      savedCard: 'h-visa',
      cvc: '123',
      shopper: { phone: '+49 151 12345678' },
    });
  });

  it('hosted: the shopper’s details go with POST /widget/hosted', async () => {
    m = await withSession({ collect: ALL }, { mode: 'hosted' });
    m.backend.on('POST /widget/hosted', {
      json: { action: 'redirect', order: order(), url: 'https://gateway.example/hpp/abc' },
    });
    payButton(m).click();
    await m.until('pay-error');
    expect(m.backend.requests('POST /widget/hosted')).to.have.length(0);
    await fillShopper(m);
    payButton(m).click();
    await m.until('pay-redirect');
    expect(m.backend.requests('POST /widget/hosted')[0]!.body).to.deep.equal({ shopper: SHOPPER });
  });

  it('a field the backend refuses (400, shopper.…) shows on its input in the shopper’s words', async () => {
    m = await withSession({ collect: ALL }, { locale: 'fr' });
    const fr = await loadLanguage('fr');
    m.backend.on('POST /widget/pay', {
      status: 400,
      json: {
        error: {
          code: 'validation',
          message: 'shopper.billingAddress.zipCode does not fit DE',
          field: 'shopper.billingAddress.zipCode',
        },
      },
    });
    await fillShopper(m);
    await fillCard(m);
    payButton(m).click();
    await m.until('pay-error');
    await m.el.updateComplete;
    await new Promise((r) => setTimeout(r));
    expect(m.$('#err-zipCode').textContent).to.equal(fr['zipCode.invalid']);
    expect(m.input('zipCode').getAttribute('aria-invalid')).to.equal('true');
    expect(m.root.activeElement).to.equal(m.input('zipCode'));
    expect(m.$('[role="status"]').textContent).to.equal(fr['zipCode.invalid']);
    expect(m.of('pay-error')).to.deep.equal([
      {
        code: 'validation',
        message: 'shopper.billingAddress.zipCode does not fit DE',
        field: 'zipCode',
      },
    ]);
    // Typed again, the shopper may pay again.
    typeInto(m.input('zipCode'), '10117');
    await m.el.updateComplete;
    expect(m.$('#err-zipCode').textContent).to.equal('');
  });

  it('right to left in Hebrew: Hebrew words and country names, e-mail, phone and code left to right', async () => {
    const he = await loadLanguage('he');
    m = await withSession({ collect: ALL, countryHint: 'IL' }, { locale: 'he' });
    expect(getComputedStyle(m.$('[part~="billing-address"]')).direction).to.equal('rtl');
    expect(m.$('label[for="in-email"]').textContent).to.equal(he.email);
    expect(m.$('[part~="contact"] legend').textContent).to.equal(he.contact);
    expect(select(m).selectedOptions[0]!.textContent).to.equal('ישראל');
    for (const f of ['email', 'phone', 'zipCode']) {
      expect(getComputedStyle(m.input(f)).direction, f).to.equal('ltr');
      expect(getComputedStyle(m.input(f)).textAlign, f).to.equal('right');
    }
    expect(getComputedStyle(m.input('city')).direction).to.equal('rtl');
  });

  for (const locale of ['en', 'ar']) {
    it(`axe finds nothing, targets are 24 px or more, and it reflows at 320 px (${locale})`, async () => {
      await setViewport({ width: 320, height: 640 });
      m = await withSession({ collect: ALL, countryHint: 'US' }, { locale });
      const check = async (what: string) => {
        const res = await axe.run(m!.el, { resultTypes: ['violations'] });
        expect(
          res.violations.map((v) => v.id),
          what,
        ).to.deep.equal([]);
        expect(document.documentElement.scrollWidth, what).to.be.at.most(innerWidth);
        for (const el of m!.root.querySelectorAll<HTMLElement>('input, select, button')) {
          const r = el.getBoundingClientRect();
          if (!r.width) continue;
          expect(Math.min(r.width, r.height), `${what} ${el.getAttribute('name')}`).to.be.at.least(
            24,
          );
          expect(r.left, `${what} ${el.getAttribute('name')}`).to.be.at.least(0);
          expect(r.right, `${what} ${el.getAttribute('name')}`).to.be.at.most(innerWidth);
        }
      };
      await check('empty');
      m.el.submit();
      await m.until('pay-error');
      await m.el.updateComplete;
      await check('errors');
    });
  }
});
