/**
 * The time limits a shopper meets are warned of before they end (WCAG 2.2.1), on the element's
 * injected clock: the session's, with "I need more time" while the backend takes an extension
 * (the new token carried from then on), or words that say it cannot be; its end with the form up;
 * none of it while a payment is under way; and the bank's challenge, which cannot be extended,
 * warned of in the dialog. axe finds nothing in the warning.
 */
import { expect } from '@open-wc/testing';
import 'axe-core';
import type { ExtendAnswer, NextAction } from '../../contract/api-types.js';
import { CHALLENGE_TIMEOUT_MS } from '../../contract/three-ds.js';
import { clockTime, WARN_BEFORE_MS } from '../../widget/src/time-limits.js';
import { FakeBackend, ORDER_ID, order, sessionView } from './support/fake-backend.js';
import { flush } from './support/fake-clock.js';
import { b64url, fakeLaunch } from './support/frames.js';
import { BACKEND, fillCard, type Mounted, mount, payButton } from './support/mount.js';

const axe = (globalThis as unknown as { axe: typeof import('axe-core') }).axe;

/** The session of these tests: an hour left on the element's clock (12:00 to 13:00 UTC). */
const HOUR = 60 * 60_000;
const EXPIRES_AT = '2026-06-15T13:00:00.000Z';

let m: Mounted | undefined;
afterEach(() => {
  m?.stop();
  m?.el.remove();
  m = undefined;
});

async function withSession(over: Parameters<typeof sessionView>[0] = {}): Promise<Mounted> {
  const backend = new FakeBackend().on('GET /widget/session', {
    json: sessionView({ expiresAt: EXPIRES_AT, expiresInMs: HOUR, extensionsLeft: 3, ...over }),
  });
  return mount({ backend });
}

/** The warning above the form, or null. */
const warning = (mm: Mounted) => mm.$<HTMLElement>('.time');
const text = (el: Element | null) => el?.textContent?.replace(/\s+/g, ' ').trim();
/** The hour `ms` after the start of the element's clock, as the element writes it in English. */
const at = (mm: Mounted, ms: number) => clockTime('en', mm.clock.now() + ms);

describe('the session’s time limit', () => {
  it(`warns ${WARN_BEFORE_MS / 1000} s before its end, spoken, with "I need more time"; axe finds nothing`, async () => {
    m = await withSession();
    const end = at(m, HOUR);
    await m.clock.tick(HOUR - WARN_BEFORE_MS - 1);
    await m.el.updateComplete;
    expect(warning(m)).to.equal(null);
    await m.clock.tick(1);
    await m.el.updateComplete;
    const shown = warning(m)!;
    expect(shown.getAttribute('role')).to.equal('alert');
    expect(text(shown)).to.equal(`This checkout closes at ${end}. I need more time`);
    expect(shown.querySelector('button')!.textContent).to.equal('I need more time');
    // The form is still there and usable: the warning takes nothing away.
    expect(m.input('number')).to.not.equal(null);
    const res = await axe.run(m.el, { resultTypes: ['violations'] });
    expect(res.violations.map((v) => v.id)).to.deep.equal([]);
  });

  it('"I need more time" extends: the new end said and focused (no button now), the new token used, warned again before the new end', async () => {
    m = await withSession();
    const extended: ExtendAnswer = {
      token: 'tok-extended',
      expiresAt: '2026-06-15T13:15:00.000Z',
      expiresInMs: WARN_BEFORE_MS + 15 * 60_000,
      extensionsLeft: 2,
    };
    m.backend.on('POST /widget/extend', { json: extended });
    await m.clock.tick(HOUR - WARN_BEFORE_MS);
    await m.el.updateComplete;
    warning(m)!.querySelector('button')!.click();
    await m.backend.waitFor('POST /widget/extend');
    const [asked] = m.backend.requests('POST /widget/extend');
    expect(asked!.body).to.deep.equal({ expiresAt: EXPIRES_AT });
    expect(asked!.headers.authorization).to.equal('Bearer tok-123');
    await flush();
    await m.el.updateComplete;
    const end = at(m, extended.expiresInMs);
    expect(text(warning(m))).to.equal(`This checkout closes at ${end}.`);
    expect(warning(m)!.querySelector('button')).to.equal(null);
    expect(m.root.activeElement).to.equal(warning(m));
    // Not the old end: nothing happens at 13:00.
    await m.clock.tick(WARN_BEFORE_MS);
    await m.el.updateComplete;
    expect(m.$('[part="result"]')).to.equal(null);
    // Warned again before the new end.
    await m.clock.tick(15 * 60_000 - WARN_BEFORE_MS);
    await m.el.updateComplete;
    expect(text(warning(m))).to.equal(`This checkout closes at ${end}. I need more time`);
    // Every call from now on carries the extension's token.
    m.backend.on('POST /widget/pay', { json: { action: 'final', order: order() } });
    await fillCard(m);
    payButton(m).click();
    await m.backend.waitFor('POST /widget/pay');
    expect(m.backend.requests('POST /widget/pay')[0]!.headers.authorization).to.equal(
      'Bearer tok-extended',
    );
  });

  it('refused (409), it says the checkout cannot stay open longer, focused, with no button', async () => {
    m = await withSession();
    m.backend.on('POST /widget/extend', {
      status: 409,
      json: { error: { code: 'conflict', message: 'no more' } },
    });
    const end = at(m, HOUR);
    await m.clock.tick(HOUR - WARN_BEFORE_MS);
    await m.el.updateComplete;
    warning(m)!.querySelector('button')!.click();
    await m.backend.waitFor('POST /widget/extend');
    await flush();
    await m.el.updateComplete;
    expect(text(warning(m))).to.equal(
      `This checkout closes at ${end}. It cannot stay open longer.`,
    );
    expect(warning(m)!.querySelector('button')).to.equal(null);
    expect(m.root.activeElement).to.equal(warning(m));
  });

  it('with no extension left it says so at once, then at its end reads the session again and shows the expiry', async () => {
    const backend = new FakeBackend().on(
      'GET /widget/session',
      { json: sessionView({ expiresAt: EXPIRES_AT, expiresInMs: HOUR, extensionsLeft: 0 }) },
      { json: sessionView({ expiresAt: EXPIRES_AT, state: 'expired', extensionsLeft: 0 }) },
    );
    m = await mount({ backend });
    const end = at(m, HOUR);
    await m.clock.tick(HOUR - WARN_BEFORE_MS);
    await m.el.updateComplete;
    expect(text(warning(m))).to.equal(
      `This checkout closes at ${end}. It cannot stay open longer.`,
    );
    expect(warning(m)!.querySelector('button')).to.equal(null);
    await m.clock.tick(WARN_BEFORE_MS);
    await m.until('pay-error');
    await m.el.updateComplete;
    expect(m.of('pay-error')).to.deep.include({
      code: 'session-expired',
      message: 'session expired',
    });
    expect(text(m.$('[part="result"] p'))).to.equal(
      'This checkout has expired. Please reload the page.',
    );
    expect(m.backend.requests('POST /widget/extend')).to.have.length(0);
    expect(m.backend.requests('GET /widget/session')).to.have.length(2);
  });

  it('at its end, a session another tab extended meanwhile stays open: read again, timed afresh', async () => {
    const backend = new FakeBackend().on(
      'GET /widget/session',
      { json: sessionView({ expiresAt: EXPIRES_AT, expiresInMs: HOUR, extensionsLeft: 3 }) },
      {
        json: sessionView({
          expiresAt: '2026-06-15T13:15:00.000Z',
          expiresInMs: 15 * 60_000,
          extensionsLeft: 2,
        }),
      },
    );
    m = await mount({ backend });
    await m.clock.tick(HOUR);
    await m.backend.waitFor('GET /widget/session', 2);
    await flush();
    await m.el.updateComplete;
    expect(m.$('[part="result"]')).to.equal(null);
    expect(m.of('pay-error')).to.deep.equal([]);
    expect(m.input('number')).to.not.equal(null);
    // Warned again before the new end.
    await m.clock.tick(15 * 60_000 - WARN_BEFORE_MS);
    await m.el.updateComplete;
    expect(text(warning(m))).to.equal(
      `This checkout closes at ${at(m, WARN_BEFORE_MS)}. I need more time`,
    );
  });

  it('counts from the time left the backend measured, whatever the device clock says of expiresAt', async () => {
    // expiresAt says 13:00 but only 10 minutes are left: the backend's clock is the right one.
    m = await withSession({ expiresInMs: 10 * 60_000 });
    await m.clock.tick(8 * 60_000);
    await m.el.updateComplete;
    expect(text(warning(m))).to.match(/^This checkout closes at /);
  });

  it('shows nothing while a payment is under way (it outlives the session), nor ends it', async () => {
    m = await withSession();
    m.backend.on('POST /widget/pay', () => new Promise<never>(() => {}));
    await fillCard(m);
    payButton(m).click();
    await m.backend.waitFor('POST /widget/pay');
    await m.clock.tick(HOUR + 60_000);
    await m.el.updateComplete;
    expect(warning(m)).to.equal(null);
    expect(m.of('pay-error')).to.deep.equal([]);
  });
});

describe('the bank’s time limit, in the challenge dialog', () => {
  const returnUrl = `${BACKEND}/return/challenge-complete/${ORDER_ID}`;
  const creq = b64url(JSON.stringify({ messageType: 'CReq', challengeWindowSize: '02' }));
  const acsUrl = `${location.origin}/fake-acs/challenge?return=${encodeURIComponent(returnUrl)}`;
  const challenge: NextAction = {
    action: 'challenge',
    order: order(),
    acsUrl,
    creq,
    challengeWindowSize: '02',
    launchUrl: fakeLaunch(acsUrl, { creq }),
  };

  it(`says ${WARN_BEFORE_MS / 1000} s before it ends when, that it cannot be extended, and what then happens`, async () => {
    m = await withSession();
    m.backend.on('POST /widget/pay', { json: challenge });
    m.backend.on('GET /widget/next', () => new Promise<never>(() => {}));
    await fillCard(m);
    payButton(m).click();
    await m.until('pay-challenge');
    const end = at(m, CHALLENGE_TIMEOUT_MS);
    const dialog = m.$<HTMLDialogElement>('dialog');
    await m.clock.tick(CHALLENGE_TIMEOUT_MS - WARN_BEFORE_MS - 1);
    await m.el.updateComplete;
    expect(dialog.querySelector('.time')).to.equal(null);
    await m.clock.tick(1);
    await m.el.updateComplete;
    const said = dialog.querySelector('.time')!;
    expect(said.getAttribute('role')).to.equal('alert');
    expect(said.textContent).to.equal(
      `Your bank’s page closes at ${end} and cannot be given more time; the payment then stops.`,
    );
    // Nothing to press: the bank's limit is not ours to extend.
    expect(said.querySelector('button')).to.equal(null);
    const res = await axe.run(dialog, { resultTypes: ['violations'], iframes: false });
    expect(res.violations.map((v) => v.id)).to.deep.equal([]);
  });
});
