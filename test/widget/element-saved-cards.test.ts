import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { NextAction, SavedCardView } from '../../contract/api-types.js';
import { FakeBackend, finalApproved, order, sessionView } from './support/fake-backend.js';
import { fillCard, type Mounted, mount, payButton } from './support/mount.js';

let m: Mounted | undefined;
afterEach(() => {
  m?.stop();
  m = undefined;
});

const card = (over: Partial<SavedCardView>): SavedCardView => ({
  handle: 'h-visa',
  brand: 'VISA',
  brandId: 'visa',
  last4: '4242',
  expMonth: '12',
  expYear: '2030',
  holder: 'ADA LOVELACE',
  expired: false,
  ...over,
});

const OFFERED = [
  card({ handle: 'h-old', last4: '0005', expMonth: '01', expYear: '2021', expired: true }),
  card({ handle: 'h-visa' }),
  card({
    handle: 'h-amex',
    brand: 'AMERICAN EXPRESS',
    brandId: 'amex',
    last4: '0005',
    expMonth: '03',
    expYear: '2031',
  }),
];

async function withSaved(over: Parameters<typeof sessionView>[0] = {}): Promise<Mounted> {
  const backend = new FakeBackend().on('GET /widget/session', {
    json: sessionView({ saveCard: 'ask', savedCards: OFFERED, savedCardCvc: 'required', ...over }),
  });
  return mount({ backend });
}

const options = (mounted: Mounted) =>
  [...mounted.root.querySelectorAll<HTMLInputElement>('input[name="saved"]')].map((i) => ({
    label: i.closest('label')!.textContent!.replace(/\s+/g, ' ').trim(),
    checked: i.checked,
    disabled: i.disabled,
  }));

describe('<pay-checkout> saved cards', () => {
  it('lists the offered cards above "Use another card", the first usable one chosen, an expired one not selectable', async () => {
    m = await withSaved();
    expect(m.$('[part="saved-cards"] legend').textContent).to.equal('Saved cards');
    expect(options(m)).to.deep.equal([
      { label: 'Visa •••• 0005, 01/21, Expired', checked: false, disabled: true },
      { label: 'Visa •••• 4242, 12/30', checked: true, disabled: false },
      { label: 'American Express •••• 0005, 03/31', checked: false, disabled: false },
      { label: 'Use another card', checked: false, disabled: false },
    ]);
    // Only the chosen card's security code: no number, expiry, name, nor a box to save it.
    expect(m.input('number')).to.equal(null);
    expect(m.input('cvc')).to.not.equal(null);
    expect(m.$('input[name="saveCard"]')).to.equal(null);
  });

  it('lists a card once though the backend offers it twice (two references of one card): its first, most recent, handle pays', async () => {
    m = await withSaved({
      savedCards: [card({ handle: 'h-new' }), card({ handle: 'h-again' }), OFFERED[2]!],
    });
    expect(options(m)).to.deep.equal([
      { label: 'Visa •••• 4242, 12/30', checked: true, disabled: false },
      { label: 'American Express •••• 0005, 03/31', checked: false, disabled: false },
      { label: 'Use another card', checked: false, disabled: false },
    ]);
    m.backend.on('POST /widget/pay', { json: finalApproved() });
    m.input('cvc').focus();
    await sendKeys({ type: '123' });
    payButton(m).click();
    await m.until('pay-success');
    expect(m.backend.requests('POST /widget/pay')[0]!.body).to.deep.include({ savedCard: 'h-new' });
  });

  it('pays with the chosen card by its security code: its handle, never a card number', async () => {
    m = await withSaved();
    m.backend.on('POST /widget/pay', { json: finalApproved() });
    m.input('cvc').focus();
    await sendKeys({ type: '123' });
    payButton(m).click();
    await m.until('pay-success');
    const [sent] = m.backend.requests('POST /widget/pay');
    expect(sent!.body).to.deep.include({ savedCard: 'h-visa', cvc: '123' });
    expect(sent!.body).to.not.have.property('card');
    expect(m.of('pay-submit')).to.deep.equal([{ mode: 'direct', brand: 'visa', last4: '4242' }]);
  });

  it('the code is checked against the card’s brand: four digits for American Express', async () => {
    m = await withSaved();
    m.root.querySelectorAll<HTMLInputElement>('input[name="saved"]')[2]!.click();
    await m.el.updateComplete;
    m.input('cvc').focus();
    await sendKeys({ type: '123' });
    payButton(m).click();
    await m.until('pay-error');
    expect(m.of('pay-error')).to.deep.equal([
      { code: 'validation', message: 'The security code has 4 digits.', field: 'cvc' },
    ]);
    expect(m.backend.requests('POST /widget/pay')).to.have.length(0);
  });

  it('a required code left empty is refused; an optional one may be left out', async () => {
    m = await withSaved();
    payButton(m).click();
    await m.until('pay-error');
    expect(m.$('#err-cvc').textContent).to.equal('Enter the security code.');
    m.stop();
    m = await withSaved({ savedCardCvc: 'optional' });
    m.backend.on('POST /widget/pay', { json: finalApproved() });
    payButton(m).click();
    await m.until('pay-success');
    const body = m.backend.requests('POST /widget/pay')[0]!.body as Record<string, unknown>;
    expect(body.savedCard).to.equal('h-visa');
    expect(body).to.not.have.property('cvc');
  });

  it('"Use another card" gives the card form and the unticked box to save it; ticked, the consent is sent', async () => {
    m = await withSaved();
    m.root.querySelectorAll<HTMLInputElement>('input[name="saved"]')[3]!.click();
    await m.el.updateComplete;
    const consent = m.$<HTMLInputElement>('input[name="saveCard"]');
    expect(consent.checked).to.equal(false);
    expect(consent.closest('label')!.textContent!.trim()).to.equal('Save this card for next time');
    await fillCard(m);
    consent.click();
    m.backend.on('POST /widget/pay', { json: finalApproved() });
    payButton(m).click();
    await m.until('pay-success');
    const body = m.backend.requests('POST /widget/pay')[0]!.body as Record<string, unknown>;
    expect(body.saveCard).to.equal(true);
    expect(body).to.not.have.property('savedCard');
  });

  it('no consent, no saveCard sent; a session that never saves shows no box', async () => {
    m = await withSaved({ savedCards: [] });
    await fillCard(m);
    m.backend.on('POST /widget/pay', { json: finalApproved() });
    payButton(m).click();
    await m.until('pay-success');
    expect(m.backend.requests('POST /widget/pay')[0]!.body).to.not.have.property('saveCard');
    m.stop();
    m = await withSaved({ savedCards: [], saveCard: 'never' });
    expect(m.$('input[name="saveCard"]')).to.equal(null);
    m.stop();
    m = await withSaved({ savedCards: [], saveCard: 'always' });
    expect(m.$('input[name="saveCard"]')).to.equal(null);
  });

  it('a decline gives the list back with the same card chosen, its code empty and focused', async () => {
    m = await withSaved();
    const declined: NextAction = {
      action: 'final',
      order: order({ status: 'declined', errorCode: '05', attemptsLeft: 2 }),
    };
    m.backend.on('POST /widget/pay', { json: declined });
    m.input('cvc').focus();
    await sendKeys({ type: '999' });
    payButton(m).click();
    await m.until('pay-declined');
    await m.el.updateComplete;
    await m.el.updateComplete;
    expect(options(m)[1]!.checked).to.equal(true);
    expect(m.input('cvc').value).to.equal('');
    expect(m.root.activeElement).to.equal(m.input('cvc'));
    expect(m.$('[part="notice"]').textContent).to.match(/^Your bank declined the payment\./);
  });
});
