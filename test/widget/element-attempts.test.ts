import { expect } from '@open-wc/testing';
import type { NextAction } from '../../contract/api-types.js';
import {
  FakeBackend,
  finalApproved,
  ORDER_ID,
  order,
  sessionView,
} from './support/fake-backend.js';
import { flush } from './support/fake-clock.js';
import { fakeLaunch } from './support/frames.js';
import { fillCard, type Mounted, mount, payButton } from './support/mount.js';

let m: Mounted | undefined;
afterEach(() => {
  m?.stop();
  sessionStorage.clear();
});

const values = (mounted: Mounted) =>
  ['number', 'expiry', 'cvc', 'name'].map((f) => mounted.input(f).value);

const declinedWithAttempts = (attemptsLeft: number): NextAction => ({
  action: 'final',
  order: order({
    status: 'declined',
    reason: 'Insufficient funds',
    errorCode: '51',
    declineReason: 'funds',
    attemptsLeft,
  }),
});

describe('<pay-checkout> payment attempts', () => {
  it('a decline with attempts left gives the form back: why, empty card, name kept, focus on the number', async () => {
    m = await mount();
    m.backend.on('POST /widget/pay', { json: declinedWithAttempts(4) });
    await fillCard(m);
    payButton(m).click();
    await m.until('pay-declined');
    await m.el.updateComplete;
    await flush();
    expect(m.of('pay-declined')).to.deep.equal([
      {
        orderId: ORDER_ID,
        status: 'declined',
        reason: 'Insufficient funds',
        errorCode: '51',
        attemptsLeft: 4,
      },
    ]);
    // The backend named the reason of the gateway's code 51 (payments/decline-reason.ts).
    const why =
      'There is not enough money on this card. You can pay again, with this card or another.';
    expect(m.$('[part="notice"]').textContent).to.equal(why);
    expect(m.$('[role="status"]').textContent).to.equal(why);
    expect(m.$('[part="result"]')).to.equal(null);
    expect(values(m)).to.deep.equal(['', '', '', 'Ada Lovelace']);
    expect(m.root.activeElement).to.equal(m.input('number'));
    expect(payButton(m).getAttribute('aria-disabled')).to.equal('false');

    // Another card: the notice goes, and the second attempt ends approved.
    m.backend.on('POST /widget/pay', { json: finalApproved() });
    await fillCard(m, { number: '5555555555554444' });
    payButton(m).click();
    await m.until('pay-success');
    await m.el.updateComplete;
    expect(m.backend.requests('POST /widget/pay')).to.have.length(2);
    expect(m.$('[part="notice"]')).to.equal(null);
    expect(m.$('[part="result"] h2').textContent).to.equal('Payment approved');
  });

  it('the last attempt declined ends on the result panel, attemptsLeft 0, saying no other card is taken', async () => {
    m = await mount();
    m.backend.on('POST /widget/pay', { json: declinedWithAttempts(0) });
    await fillCard(m);
    payButton(m).click();
    await m.until('pay-declined');
    await m.el.updateComplete;
    expect(
      m.of('pay-declined').map((d) => (d as { attemptsLeft: number }).attemptsLeft),
    ).to.deep.equal([0]);
    expect(m.$('[part="result"] h2').textContent).to.equal('Payment declined');
    expect(m.$('[part="result"] p').textContent).to.equal(
      'There is not enough money on this card. This checkout cannot take another card. To pay, contact the shop or start the checkout again.',
    );
    expect(m.$('[part="form"]')).to.equal(null);
  });

  it("the merchant's words replace the exhausted shopper's (strings.attemptsExhausted)", async () => {
    m = await mount();
    m.el.strings = { attemptsExhausted: 'Please call us on 0800 123 456 to finish your order.' };
    m.backend.on('POST /widget/pay', { json: declinedWithAttempts(0) });
    await fillCard(m);
    payButton(m).click();
    await m.until('pay-declined');
    await m.el.updateComplete;
    expect(m.$('[part="result"] p').textContent).to.equal(
      'There is not enough money on this card. Please call us on 0800 123 456 to finish your order.',
    );
  });

  it('back from a bank page not finished (Back, reload) with attempts left: left at once, the form back', async () => {
    const acsUrl = `${location.origin}/fake-acs/challenge`;
    const challenge: NextAction = {
      action: 'challenge',
      order: order({ attemptsLeft: 2 }),
      acsUrl,
      creq: 'Y3JlcQ',
      challengeWindowSize: '02',
      launchUrl: fakeLaunch(acsUrl, { creq: 'Y3JlcQ' }),
    };
    sessionStorage.setItem('pay-checkout:launched', JSON.stringify([challenge.launchUrl]));
    const backend = new FakeBackend()
      .on('GET /widget/session', { json: sessionView({ state: 'paying', order: order() }) })
      .on('GET /widget/next', { json: challenge })
      .on('POST /widget/cancel', {
        json: { action: 'final', order: order({ abandoned: true, attemptsLeft: 2 }) },
      });
    m = await mount({ backend, ready: false, attrs: { challenge: 'redirect' } });
    await m.until('pay-error');
    await m.el.updateComplete;
    expect(m.backend.requests('POST /widget/cancel').map((r) => r.body)).to.deep.equal([
      { reason: 'shopper-left' },
    ]);
    expect(m.navigations).to.deep.equal([]);
    expect(m.of('pay-error')).to.deep.equal([
      {
        code: 'challenge-cancelled',
        message: 'Your bank’s page was closed before the payment was confirmed.',
        attemptsLeft: 2,
      },
    ]);
    expect(m.$('[part="notice"]').textContent).to.equal(
      'Your bank’s page was closed before the payment was confirmed. You can pay again, with this card or another.',
    );
    expect(m.root.querySelector('dialog')?.open).to.equal(false);
  });

  it('back on the page after a declined hosted form or redirect: the form and why, no payment resumed', async () => {
    const backend = new FakeBackend().on('GET /widget/session', {
      json: sessionView({
        state: 'open',
        order: order({ status: 'declined', reason: 'Do not honour', attemptsLeft: 3 }),
      }),
    });
    m = await mount({ backend, ready: false, attrs: { mode: 'hosted' } });
    await m.until('pay-declined');
    await m.el.updateComplete;
    expect(m.backend.requests('GET /widget/next')).to.have.length(0);
    expect(m.$('[part="notice"]').textContent).to.match(/^Your bank declined the payment\./);
    expect(payButton(m).textContent?.trim()).to.match(/^Pay/);
  });

  it('a hosted payment approved without card details says so without an empty card', async () => {
    const backend = new FakeBackend()
      .on('GET /widget/session', { json: sessionView({ state: 'paying', order: order() }) })
      .on('GET /widget/next', { json: { action: 'final', order: order({ status: 'approved' }) } });
    m = await mount({ backend, ready: false, attrs: { mode: 'hosted' } });
    await m.until('pay-success');
    await m.el.updateComplete;
    expect(m.$('[part="result"] p').textContent).to.equal('€10.42 paid.');
  });
});

describe('<pay-checkout> test mode', () => {
  it('shows a "Test mode" badge when the backend runs against a sandbox, none otherwise', async () => {
    const backend = new FakeBackend().on('GET /widget/session', {
      json: sessionView({ testMode: true }),
    });
    m = await mount({ backend });
    expect(m.$('[part="test-badge"]').textContent).to.equal('Test mode');
    m.stop();
    m = await mount();
    expect(m.root.querySelector('[part="test-badge"]')).to.equal(null);
  });
});
