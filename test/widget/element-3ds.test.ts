import { expect } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import type { NextAction } from '../../contract/api-types.js';
import { unsafeUrlOf } from '../../contract/safe-url.js';
import { CHALLENGE_TIMEOUT_MS } from '../../contract/three-ds.js';
import { CHALLENGE_POLL_MIN_MS, FALLBACK_AFTER_MS } from '../../widget/src/three-ds/flow.js';
import { WARN_BEFORE_MS } from '../../widget/src/time-limits.js';
import {
  FakeBackend,
  finalApproved,
  finalDeclined,
  ORDER_ID,
  order,
  sessionView,
} from './support/fake-backend.js';
import { flush } from './support/fake-clock.js';
import {
  b64url,
  fakeLaunch,
  nextReturnPosted,
  pageIn,
  receivedBy,
  waitUntil,
} from './support/frames.js';
import { BACKEND, fillCard, type Mounted, mount, payButton } from './support/mount.js';

const ORIGIN = location.origin;
const returnUrl = (type: string) => `${BACKEND}/return/${type}/${ORDER_ID}`;
const methodData = b64url(
  JSON.stringify({
    threeDSServerTransID: '3d671629-a410-4a5d-9288-b38ceadd41f2',
    threeDSMethodNotificationURL: returnUrl('method-complete'),
  }),
);
const CREQ = b64url(
  JSON.stringify({
    threeDSServerTransID: '3d671629',
    acsTransID: 'acs-1',
    messageVersion: '2.2.0',
    messageType: 'CReq',
    challengeWindowSize: '02',
  }),
);

type Challenge = Extract<NextAction, { action: 'challenge' }>;
const challengeAction = (over: Partial<Challenge> = {}): Challenge => {
  const a = {
    action: 'challenge',
    order: order(),
    acsUrl: `${ORIGIN}/fake-acs/challenge?return=${encodeURIComponent(returnUrl('challenge-complete'))}`,
    creq: CREQ,
    threeDSSessionData: 'c2Vzcy1kYXRhLTE',
    challengeWindowSize: '02',
    ...over,
  } as const;
  const launchUrl =
    over.launchUrl ?? fakeLaunch(a.acsUrl, { creq: a.creq, threeDSSessionData: 'c2Vzcy1kYXRhLTE' });
  return { ...a, launchUrl };
};
const threeDs1Action = (acsUrl: string, md = 'md-123'): NextAction => ({
  action: '3ds1',
  order: order(),
  acsUrl,
  paReq: 'eJxVUttygjAQ',
  md,
  termUrl: returnUrl('challenge-complete'),
  launchUrl: fakeLaunch(acsUrl, {
    PaReq: 'eJxVUttygjAQ',
    MD: md,
    TermUrl: returnUrl('challenge-complete'),
  }),
});
const methodAction = (methodUrl: string): NextAction => ({
  action: 'method',
  order: order(),
  methodUrl,
  methodData,
  launchUrl: fakeLaunch(methodUrl, { threeDSMethodData: methodData }),
  timeoutMs: 10_000,
});
/** A long poll that has nothing new yet: the backend holds it. */
const HELD = () => new Promise<never>(() => {});

let m: Mounted | undefined;
afterEach(async () => {
  sessionStorage.clear();
  m?.stop();
  m?.el.remove();
  await setViewport({ width: 800, height: 600 });
});

async function payWith(first: NextAction, attrs: Record<string, string> = {}): Promise<Mounted> {
  m = await mount({ attrs });
  m.backend.on('POST /widget/pay', { json: first });
  // While a challenge is open the widget long-polls the backend: first a poll the backend holds.
  const opens = ['challenge', '3ds1', 'html'].includes(first.action) && !unsafeUrlOf(first);
  if (opens && attrs.challenge !== 'redirect') m.backend.on('GET /widget/next', HELD);
  await fillCard(m);
  payButton(m).click();
  return m;
}

const dialog = (mm: Mounted) => mm.$<HTMLDialogElement>('dialog');
const frame = (mm: Mounted) => mm.$<HTMLIFrameElement>('dialog iframe');
const browserOf = (mm: Mounted) =>
  (mm.backend.requests('POST /widget/pay')[0]!.body as { browser: unknown }).browser;

describe('3DS Method', () => {
  it('posts threeDSMethodData in a hidden frame and reports Y when the notification page posts back', async () => {
    const returned = nextReturnPosted();
    await payWith(methodAction(`${ORIGIN}/fake-acs/method`));
    m!.backend.on('POST /widget/method-result', { json: finalApproved() });
    await m!.until('pay-3ds-method');
    const hidden = m!.$<HTMLIFrameElement>('.method-host iframe');
    expect(hidden.getAttribute('aria-hidden')).to.equal('true');
    expect(hidden.tabIndex).to.equal(-1);
    expect(m!.clock.pending()).to.deep.equal([10_000]);
    const { data, origin } = await returned;
    // The ACS got our data and passed it to the notification URL unchanged.
    expect(origin).to.equal(ORIGIN);
    expect(data.received).to.deep.equal({ threeDSMethodData: methodData });
    await m!.until('pay-success');
    expect(m!.of('pay-3ds-method')).to.deep.equal([
      { phase: 'start' },
      { phase: 'complete', compInd: 'Y' },
    ]);
    expect(m!.backend.requests('POST /widget/method-result').map((r) => r.body)).to.deep.equal([
      { threeDSCompInd: 'Y', browser: browserOf(m!) },
    ]);
    expect(m!.root.querySelector('.method-host')!.children).to.have.length(0);
    expect(m!.clock.pending()).to.deep.equal([]);
    expect(m!.of('pay-status').map((s) => (s as { step: string }).step)).to.deep.equal([
      'loading',
      'ready',
      'paying',
      'method',
      'final',
    ]);
  });

  it('reports N when 10 s pass without notification (fake clock)', async () => {
    await payWith(methodAction(`${ORIGIN}/fake-acs/method-silent`));
    m!.backend.on('POST /widget/method-result', { json: finalApproved() });
    await m!.until('pay-3ds-method');
    await receivedBy(m!.$<HTMLIFrameElement>('.method-host iframe'), 'ACS method (never notifies)');
    await m!.clock.tick(9_999);
    expect(m!.backend.requests('POST /widget/method-result')).to.have.length(0);
    await m!.clock.tick(1);
    await m!.until('pay-success');
    expect(m!.of('pay-3ds-method')).to.deep.equal([
      { phase: 'start' },
      { phase: 'complete', compInd: 'N' },
    ]);
    expect(
      (m!.backend.requests('POST /widget/method-result')[0]!.body as { threeDSCompInd: string })
        .threeDSCompInd,
    ).to.equal('N');
    expect(m!.root.querySelector('.method-host iframe')).to.equal(null);
  });

  it('reports U at once when there is no method URL', async () => {
    await payWith({ action: 'method', order: order(), timeoutMs: 10_000 });
    m!.backend.on('POST /widget/method-result', { json: finalApproved() });
    await m!.until('pay-success');
    expect(m!.of('pay-3ds-method')).to.deep.equal([
      { phase: 'start' },
      { phase: 'complete', compInd: 'U' },
    ]);
    expect(m!.backend.requests('POST /widget/method-result')[0]!.body).to.deep.equal({
      threeDSCompInd: 'U',
      browser: browserOf(m!),
    });
  });
});

describe('3DS 2 challenge', () => {
  it('passes: creq posted into a labelled modal frame, completion by postMessage, then /widget/next', async () => {
    await payWith(challengeAction());
    let releaseNext: () => void = () => {};
    m!.backend.on(
      'GET /widget/next',
      () => new Promise((r) => (releaseNext = () => r({ json: finalApproved() }))),
    );
    await m!.until('pay-challenge');
    const dlg = dialog(m!);
    expect(dlg.open).to.equal(true);
    expect(dlg.matches(':modal')).to.equal(true);
    expect(m!.root.getElementById(dlg.getAttribute('aria-labelledby')!)!.textContent).to.equal(
      'Confirm the payment with your bank',
    );
    // Focus is in the dialog, on its heading (not on the destructive ✕).
    expect(m!.root.activeElement?.id).to.equal('dlg-title');
    const f = frame(m!);
    expect(f.getAttribute('src')).to.equal(challengeAction().launchUrl);
    expect(f.getAttribute('allow')).to.equal(
      'payment *; publickey-credentials-get *; publickey-credentials-create *',
    );
    expect(f.style.width).to.equal('390px');
    expect(f.style.height).to.equal('400px');
    expect(m!.of('pay-challenge')).to.deep.equal([
      { phase: 'open', version: '2', windowSize: '02' },
    ]);
    const received = await receivedBy(f, 'ACS challenge');
    expect(received).to.deep.equal({ creq: CREQ, threeDSSessionData: 'c2Vzcy1kYXRhLTE' });
    const returned = nextReturnPosted();
    pageIn(f, 'ACS challenge')!.getElementById('go')!.click();
    const { data } = await returned;
    expect(data.received).to.deep.equal({
      cres: b64url('{"transStatus":"Y"}'),
      threeDSSessionData: 'c2Vzcy1kYXRhLTE',
    });
    await m!.backend.waitFor('GET /widget/next', 2);
    await m!.el.updateComplete;
    expect(m!.of('pay-challenge')[1]).to.deep.equal({ phase: 'close', reason: 'complete' });
    expect(dlg.open).to.equal(false);
    // Focus came back to the (still busy) Pay button.
    expect(m!.root.activeElement === payButton(m!)).to.equal(true);
    // The poll held while the frame was open, then the follow-up after the message.
    expect(m!.backend.requests('GET /widget/next').map((r) => r.path)).to.deep.equal([
      '/widget/next?wait=20',
      '/widget/next?wait=20',
    ]);
    releaseNext();
    await m!.until('pay-success');
    expect(m!.of('pay-status').map((s) => (s as { step: string }).step)).to.deep.equal([
      'loading',
      'ready',
      'paying',
      'challenge',
      'waiting',
      'final',
    ]);
    expect(m!.of('pay-status')[4]).to.deep.equal({
      step: 'waiting',
      orderId: ORDER_ID,
      status: 'processing',
      message: 'challenge-complete',
    });
    expect(m!.root.querySelector('dialog iframe')).to.equal(null);
  });

  it('fails: the declined final is reported with the gateway reason', async () => {
    await payWith(
      challengeAction({
        acsUrl: `${ORIGIN}/fake-acs/challenge?auto=N&return=${encodeURIComponent(returnUrl('challenge-complete'))}`,
      }),
    );
    m!.backend.on('GET /widget/next', { json: finalDeclined('3-D Secure authentication failed') });
    await m!.until('pay-declined');
    expect(m!.of('pay-declined')).to.deep.equal([
      {
        orderId: ORDER_ID,
        status: 'declined',
        reason: '3-D Secure authentication failed',
        errorCode: '3DS-N',
        attemptsLeft: 0,
      },
    ]);
    expect(m!.of('pay-challenge')[1]).to.deep.equal({ phase: 'close', reason: 'complete' });
  });

  it('is cancelled with Escape: POST /widget/cancel, pay-error challenge-cancelled, and says so', async () => {
    await payWith(challengeAction());
    // The gateway has not decided: the shopper's cancel is what the shop shows.
    m!.backend.on('POST /widget/cancel', { json: { action: 'final', order: order() } });
    await m!.until('pay-challenge');
    await receivedBy(frame(m!), 'ACS challenge');
    dialog(m!).querySelector<HTMLButtonElement>('.close')!.focus();
    await sendKeys({ press: 'Escape' });
    // Asked first: nothing cancelled yet, focus on the safe choice, the bank's frame still there.
    await m!.el.updateComplete;
    await flush();
    expect(m!.root.activeElement?.className).to.equal('keep');
    expect(dialog(m!).open).to.equal(true);
    expect(frame(m!)).to.not.equal(null);
    expect(m!.backend.requests('POST /widget/cancel')).to.have.length(0);
    dialog(m!).querySelector<HTMLButtonElement>('.stop')!.click();
    await m!.until('pay-error');
    await m!.el.updateComplete;
    expect(m!.backend.requests('POST /widget/cancel').map((r) => r.body)).to.deep.equal([
      { reason: 'challenge-cancelled' },
    ]);
    expect(m!.of('pay-challenge')[1]).to.deep.equal({ phase: 'close', reason: 'cancelled' });
    expect(m!.of('pay-error')).to.deep.equal([
      {
        code: 'challenge-cancelled',
        message: 'You cancelled the verification with your bank.',
        attemptsLeft: 0,
      },
    ]);
    expect(m!.of('pay-declined')).to.have.length(0);
    expect(dialog(m!).open).to.equal(false);
    expect(m!.$('[part="result"] h2').textContent).to.equal('Payment cancelled');
    expect(m!.$('[role="status"]').textContent).to.equal(
      'Payment cancelled. You cancelled the verification with your bank.',
    );
  });

  it('the close button cancels too, and a final approval that raced the cancel wins', async () => {
    await payWith(challengeAction());
    m!.backend.on('POST /widget/cancel', { json: finalApproved() });
    await m!.until('pay-challenge');
    dialog(m!).querySelector<HTMLButtonElement>('.close')!.click();
    await m!.el.updateComplete;
    // "Keep confirming" goes back to the bank's page; asked again, the shopper confirms.
    dialog(m!).querySelector<HTMLButtonElement>('.keep')!.click();
    await m!.el.updateComplete;
    expect(dialog(m!).querySelector('.keep')).to.equal(null);
    expect(m!.backend.requests('POST /widget/cancel')).to.have.length(0);
    dialog(m!).querySelector<HTMLButtonElement>('.close')!.click();
    await m!.el.updateComplete;
    dialog(m!).querySelector<HTMLButtonElement>('.stop')!.click();
    await m!.until('pay-success');
    expect(m!.of('pay-error')).to.have.length(0);
  });

  it('gives up after the challenge timeout: cancel as shopper-left, pay-error three-ds-timeout', async () => {
    await payWith(challengeAction());
    // The gateway has not decided yet: the widget says it took too long.
    m!.backend.on('POST /widget/cancel', { json: { action: 'final', order: order() } });
    await m!.until('pay-challenge');
    expect(m!.clock.pending()).to.deep.equal([
      FALLBACK_AFTER_MS,
      CHALLENGE_TIMEOUT_MS - WARN_BEFORE_MS,
      CHALLENGE_TIMEOUT_MS,
    ]);
    await m!.clock.tick(CHALLENGE_TIMEOUT_MS);
    await m!.until('pay-error');
    expect(m!.backend.requests('POST /widget/cancel')[0]!.body).to.deep.equal({
      reason: 'shopper-left',
    });
    expect(m!.of('pay-error')).to.deep.equal([
      {
        code: 'three-ds-timeout',
        message: 'The bank verification took too long.',
        attemptsLeft: 0,
      },
    ]);
    expect(m!.of('pay-challenge')[1]).to.deep.equal({ phase: 'close', reason: 'timeout' });
  });

  it('ignores a message from another origin, and one for another order', async () => {
    const other = ORIGIN.includes('localhost')
      ? ORIGIN.replace('localhost', '127.0.0.1')
      : ORIGIN.replace('127.0.0.1', 'localhost');
    const otherReturn = `${other}/fake-backend/return/challenge-complete/${ORDER_ID}`;
    await payWith(
      challengeAction({
        acsUrl: `${other}/fake-acs/challenge?auto=Y&return=${encodeURIComponent(otherReturn)}`,
      }),
    );
    await m!.until('pay-challenge');
    const { origin, data } = await nextReturnPosted();
    expect(origin).to.equal(other);
    expect(data.fakeReturnPosted).to.deep.equal({
      source: 'pay-checkout',
      type: 'challenge-complete',
      orderId: ORDER_ID,
    });
    // Right origin, wrong shape or wrong order: ignored as well.
    window.postMessage(
      { source: 'pay-checkout', type: 'challenge-complete', orderId: 'someone-else' },
      '*',
    );
    window.postMessage({ type: 'challenge-complete', orderId: ORDER_ID }, '*');
    window.postMessage(
      '{"source":"pay-checkout","type":"challenge-done","orderId":"order-1042"}',
      '*',
    );
    // Messages arrive in order: once a last one has arrived, the three before it were handled.
    const delivered = new Promise<void>((resolve) => {
      const onMessage = (e: MessageEvent) => {
        if (e.data !== 'sentinel') return;
        window.removeEventListener('message', onMessage);
        resolve();
      };
      window.addEventListener('message', onMessage);
    });
    window.postMessage('sentinel', '*');
    await delivered;
    await flush(5);
    expect(dialog(m!).open).to.equal(true);
    expect(m!.of('pay-challenge')).to.have.length(1);
    // Only the long poll the backend holds.
    expect(m!.backend.requests('GET /widget/next')).to.have.length(1);
    // The right message, an object as the return page posts it, moves on.
    m!.backend.on('GET /widget/next', { json: finalApproved() });
    window.postMessage(
      { source: 'pay-checkout', type: 'challenge-complete', orderId: ORDER_ID },
      '*',
    );
    await m!.until('pay-success');
  });

  it('full screen on a phone, with 05 requested from the backend', async () => {
    await setViewport({ width: 375, height: 700 });
    await payWith(challengeAction({ challengeWindowSize: '02' }));
    await m!.until('pay-challenge');
    expect((browserOf(m!) as { challengeWindowSize: string }).challengeWindowSize).to.equal('05');
    expect(m!.of('pay-challenge')[0]).to.deep.equal({
      phase: 'open',
      version: '2',
      windowSize: '05',
    });
    expect(dialog(m!).classList.contains('full')).to.equal(true);
    const rect = frame(m!).getBoundingClientRect();
    expect(rect.width).to.equal(375);
  });

  it('keeps 250x400 (01) on a phone', async () => {
    await setViewport({ width: 375, height: 700 });
    // The 3DS Server chose 01 (in the CReq): it fits a phone, so it stays.
    const creq = b64url(JSON.stringify({ messageType: 'CReq', challengeWindowSize: '01' }));
    await payWith(challengeAction({ challengeWindowSize: '01', creq }));
    await m!.until('pay-challenge');
    expect(frame(m!).style.width).to.equal('250px');
    expect(frame(m!).style.height).to.equal('400px');
  });
});

describe('3DS 1.0.2 and gateway pages', () => {
  it('posts PaReq, MD and TermUrl into the frame; PaRes comes back through the return page', async () => {
    await payWith(threeDs1Action(`${ORIGIN}/fake-acs/3ds1`));
    m!.backend.on('GET /widget/next', { json: finalApproved() });
    await m!.until('pay-challenge');
    expect(m!.of('pay-challenge')[0]).to.deep.equal({
      phase: 'open',
      version: '1.0.2',
      windowSize: '02',
    });
    const received = await receivedBy(frame(m!), 'ACS 3-D Secure 1.0.2');
    expect(received).to.deep.equal({
      PaReq: 'eJxVUttygjAQ',
      MD: 'md-123',
      TermUrl: returnUrl('challenge-complete'),
    });
    const returned = nextReturnPosted();
    pageIn(frame(m!), 'ACS 3-D Secure 1.0.2')!.getElementById('go')!.click();
    expect((await returned).data.received).to.deep.equal({ PaRes: 'fake-pares', MD: 'md-123' });
    await m!.until('pay-success');
  });

  it('frames the launcher, which frames the backend page serving a gateway html (never srcdoc), to the end', async () => {
    // Not `auto`: a page that posted itself on load could be gone before the test looked at it.
    const acs = `${ORIGIN}/fake-acs/challenge?return=${encodeURIComponent(returnUrl('final'))}`;
    const url = `${BACKEND}/gateway-page/${ORDER_ID}?acs=${encodeURIComponent(acs)}`;
    const launchUrl = fakeLaunch(null, {}, url);
    await payWith({ action: 'html', order: order(), url, launchUrl });
    m!.backend.on('GET /widget/next', { json: finalApproved() });
    await m!.until('pay-challenge');
    expect(m!.of('pay-challenge')[0]).to.deep.equal({
      phase: 'open',
      version: 'html',
      windowSize: '02',
    });
    expect(frame(m!).getAttribute('src')).to.equal(launchUrl);
    expect(frame(m!).hasAttribute('srcdoc')).to.equal(false);
    // The page's own form reached the ACS inside the frame.
    expect(await receivedBy(frame(m!), 'ACS challenge')).to.deep.equal({ creq: 'from-gateway' });
    pageIn(frame(m!), 'ACS challenge')!.getElementById('go')!.click();
    await m!.until('pay-success');
    expect(m!.of('pay-challenge')[1]).to.deep.equal({ phase: 'close', reason: 'complete' });
    expect(m!.navigations).to.deep.equal([]);
  });

  it('challenge="redirect" opens the launcher (then the gateway page) at the top level', async () => {
    const url = `${BACKEND}/gateway-page/${ORDER_ID}`;
    const launchUrl = fakeLaunch(null, {}, url);
    await payWith({ action: 'html', order: order(), url, launchUrl }, { challenge: 'redirect' });
    await m!.until('pay-redirect');
    expect(m!.of('pay-redirect')).to.deep.equal([{ url: launchUrl, reason: 'challenge' }]);
    expect(m!.navigations).to.deep.equal([launchUrl]);
    expect(m!.of('pay-challenge')).to.have.length(0);
  });

  it('follows a gateway redirect at the top level', async () => {
    await payWith({ action: 'redirect', order: order(), url: 'https://gateway.example/3ds/start' });
    await m!.until('pay-redirect');
    expect(m!.of('pay-redirect')).to.deep.equal([
      { url: 'https://gateway.example/3ds/start', reason: 'gateway' },
    ]);
    expect(m!.navigations).to.deep.equal(['https://gateway.example/3ds/start']);
  });
});

describe('redirect mode and resume', () => {
  it('challenge="redirect" sends the page to the launcher, which posts the creq; no dialog', async () => {
    await payWith(challengeAction(), { challenge: 'redirect' });
    await m!.until('pay-redirect');
    const { launchUrl } = challengeAction();
    expect(m!.navigations).to.deep.equal([launchUrl]);
    expect(m!.of('pay-redirect')).to.deep.equal([{ url: launchUrl, reason: 'challenge' }]);
    expect(m!.of('pay-challenge')).to.have.length(0);
    expect(dialog(m!).open).to.equal(false);
    // EMV: a full-page challenge asks for a full window.
    expect((browserOf(m!) as { challengeWindowSize: string }).challengeWindowSize).to.equal('05');
    // The page leaves with no card data in its inputs (the name stays for another attempt).
    const values = [...m!.el.shadowRoot!.querySelectorAll('input')].map((i) => i.value);
    expect(values).to.have.length(4);
    expect(values).to.deep.equal(['', '', '', 'Ada Lovelace']);
  });

  it('3DS 1.0.2 in redirect mode goes to its launcher at the top level', async () => {
    const a = threeDs1Action('https://acs.example/pareq', '');
    await payWith(a, { challenge: 'redirect' });
    await m!.until('pay-redirect');
    expect(m!.navigations).to.deep.equal([(a as { launchUrl: string }).launchUrl]);
  });

  it('goes on at the top level when the page CSP blocks the launcher frame', async () => {
    const a = challengeAction();
    await payWith(a);
    await m!.until('pay-challenge');
    document.dispatchEvent(
      new SecurityPolicyViolationEvent('securitypolicyviolation', {
        blockedURI: a.launchUrl,
        violatedDirective: 'frame-src',
        effectiveDirective: 'frame-src',
        originalPolicy: "frame-src 'self'",
        disposition: 'enforce',
        statusCode: 0,
        documentURI: location.href,
      }),
    );
    await m!.until('pay-redirect');
    expect(m!.of('pay-challenge')[1]).to.deep.equal({ phase: 'close', reason: 'redirect' });
    expect(m!.navigations).to.deep.equal([a.launchUrl]);
    expect(dialog(m!).open).to.equal(false);
  });

  it('the "continue in this window" button shows after 10 s and switches to the top level', async () => {
    await payWith(challengeAction());
    await m!.until('pay-challenge');
    expect(m!.root.querySelector('dialog .fallback')).to.equal(null);
    await m!.clock.tick(FALLBACK_AFTER_MS);
    await m!.el.updateComplete;
    m!.$<HTMLButtonElement>('dialog button.fallback').click();
    await m!.until('pay-redirect');
    expect(m!.navigations).to.deep.equal([challengeAction().launchUrl]);
  });

  it('a reload mid-challenge never posts the used CReq again: the dialog says the bank page closed and polls', async () => {
    const a = challengeAction();
    sessionStorage.setItem('pay-checkout:launched', JSON.stringify([a.launchUrl]));
    const backendFake = new FakeBackend()
      .on('GET /widget/session', { json: sessionView({ state: 'paying', order: order() }) })
      .on('GET /widget/next', { json: a }, { json: a }, { json: finalApproved() });
    m = await mount({ backend: backendFake, ready: false });
    await m.backend.waitFor('GET /widget/next', 2);
    await m.el.updateComplete;
    await flush();
    expect(dialog(m).open).to.equal(true);
    expect(dialog(m).querySelector('iframe')).to.equal(null);
    expect(dialog(m).querySelector('.resumed')!.textContent).to.equal(
      'Your bank’s page was closed. If you confirmed the payment there, it completes in a moment.',
    );
    expect(m.of('pay-challenge')).to.deep.equal([]);
    // The same challenge again: the next poll comes 2 s later, not at once.
    await waitUntil(() => m!.clock.pending().includes(CHALLENGE_POLL_MIN_MS), 'the poll pause');
    await m.clock.tick(CHALLENGE_POLL_MIN_MS);
    await m.until('pay-success');
    expect(dialog(m).open).to.equal(false);
    expect(m.navigations).to.deep.equal([]);
  });

  it('redirect mode: back from the bank, the shopper is not sent to the bank again', async () => {
    const a = challengeAction();
    sessionStorage.setItem('pay-checkout:launched', JSON.stringify([a.launchUrl]));
    const backendFake = new FakeBackend()
      .on('GET /widget/session', { json: sessionView({ state: 'paying', order: order() }) })
      .on('GET /widget/next', { json: a }, HELD);
    m = await mount({ backend: backendFake, ready: false, attrs: { challenge: 'redirect' } });
    await m.backend.waitFor('GET /widget/next', 2);
    await m.el.updateComplete;
    expect(m.navigations).to.deep.equal([]);
    expect(dialog(m).querySelector('.resumed')).to.not.equal(null);
  });

  it('a lost return message: the long poll alongside the challenge ends it', async () => {
    m = await mount();
    m.backend.on('POST /widget/pay', { json: challengeAction() });
    m.backend.on('GET /widget/next', { json: finalApproved() });
    await fillCard(m);
    payButton(m).click();
    await m.until('pay-success');
    expect(m.of('pay-challenge')[1]).to.deep.equal({ phase: 'close', reason: 'complete' });
    expect(dialog(m).open).to.equal(false);
  });

  it('back from the back/forward cache (pageshow persisted), asks the backend again', async () => {
    await payWith(challengeAction(), { challenge: 'redirect' });
    await m!.until('pay-redirect');
    m!.backend.on('GET /widget/session', {
      json: sessionView({ state: 'completed', order: order({ status: 'approved' }) }),
    });
    m!.backend.on('GET /widget/next', { json: finalApproved() });
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    await m!.until('pay-success');
    expect(m!.backend.requests('GET /widget/session')).to.have.length(2);
  });

  it('sizes the frame as the backend named it (the size in the CReq: the ACS was told it)', async () => {
    await payWith(challengeAction({ challengeWindowSize: '04' }));
    await m!.until('pay-challenge');
    expect(m!.of('pay-challenge')[0]).to.deep.equal({
      phase: 'open',
      version: '2',
      windowSize: '04',
    });
    expect([frame(m!).style.width, frame(m!).style.height]).to.deep.equal(['600px', '400px']);
  });

  it('resumes a paying session on return: GET /widget/next, waits, then ends', async () => {
    const backendFake = new FakeBackend()
      .on('GET /widget/session', { json: sessionView({ state: 'paying', order: order() }) })
      .on(
        'GET /widget/next',
        { json: { action: 'wait', order: order(), retryAfterMs: 1500 } },
        { json: finalApproved() },
      );
    m = await mount({ backend: backendFake, ready: false });
    await m.until('pay-status', 3);
    await m.backend.waitFor('GET /widget/next');
    expect(m.clock.pending()).to.deep.equal([1500]);
    await m.clock.tick(1500);
    await m.until('pay-success');
    expect(m.backend.requests('GET /widget/next').map((r) => r.path)).to.deep.equal([
      '/widget/next?wait=20',
      '/widget/next?wait=20',
    ]);
    expect(m.backend.requests('POST /widget/pay')).to.have.length(0);
    expect(m.of('pay-status').map((s) => (s as { step: string }).step)).to.deep.equal([
      'loading',
      'waiting',
      'waiting',
      'final',
    ]);
  });
  it('after /widget/pay answers wait, long-polls /widget/next at once, without a pause', async () => {
    await payWith({ action: 'wait', order: order(), retryAfterMs: 1000 });
    m!.backend.on('GET /widget/next', { json: finalApproved() });
    await m!.until('pay-success');
    expect(m!.backend.requests('GET /widget/next').map((r) => r.path)).to.deep.equal([
      '/widget/next?wait=20',
    ]);
    expect(m!.clock.pending()).to.deep.equal([]);
  });
});

describe('network and clean-up', () => {
  it('retries /widget/next on network failures with backoff, then succeeds', async () => {
    await payWith({ action: 'wait', order: order(), retryAfterMs: 0 });
    m!.backend.on(
      'GET /widget/next',
      { networkError: true },
      { networkError: true },
      { status: 503, json: {} },
      { json: finalApproved() },
    );
    await m!.until('pay-status', 4);
    await m!.backend.waitFor('GET /widget/next');
    await flush();
    expect(m!.clock.pending()).to.deep.equal([500]);
    await m!.clock.tick(500);
    expect(m!.clock.pending()).to.deep.equal([1500]);
    await m!.clock.tick(1500);
    expect(m!.clock.pending()).to.deep.equal([3500]);
    await m!.clock.tick(3500);
    await m!.until('pay-success');
    expect(m!.backend.requests('GET /widget/next')).to.have.length(4);
  });

  it('ends with pay-error network after the retries, and Try again resumes', async () => {
    await payWith({ action: 'wait', order: order(), retryAfterMs: 0 });
    m!.backend.on(
      'GET /widget/next',
      { networkError: true },
      { networkError: true },
      { networkError: true },
      { networkError: true },
      { json: finalApproved() },
    );
    await m!.until('pay-status', 4);
    await m!.clock.tick(10_000);
    await m!.until('pay-error');
    await m!.el.updateComplete;
    expect(m!.of('pay-error')).to.deep.equal([{ code: 'network', message: 'Failed to fetch' }]);
    expect(m!.backend.requests('GET /widget/next')).to.have.length(4);
    expect(m!.$('[part="result"] p').textContent).to.equal(
      'We could not reach the payment service. Check your connection and try again.',
    );
    m!.backend.on('GET /widget/session', {
      json: sessionView({ state: 'paying', order: order() }),
    });
    m!.$<HTMLButtonElement>('[part="result"] button').click();
    await m!.until('pay-success');
  });

  it('does not retry POST /widget/pay', async () => {
    m = await mount();
    m.backend.on('POST /widget/pay', { networkError: true });
    await fillCard(m);
    m.el.submit();
    await m.until('pay-error');
    expect(m.backend.requests('POST /widget/pay')).to.have.length(1);
    expect(m.of('pay-error')).to.deep.equal([{ code: 'network', message: 'Failed to fetch' }]);
  });

  it('removes its frames, timers and message listener when it leaves the page (during the Method)', async () => {
    // Message listeners go with the flow's abort signal (addEventListener's `signal` option).
    const listening: (AbortSignal | undefined)[] = [];
    const origAdd = window.addEventListener;
    window.addEventListener = function (
      this: Window,
      type: string,
      fn: EventListenerOrEventListenerObject,
      o?: boolean | AddEventListenerOptions,
    ) {
      if (type === 'message') listening.push(typeof o === 'object' ? o.signal : undefined);
      return origAdd.call(this, type, fn, o);
    } as typeof window.addEventListener;
    try {
      await payWith(methodAction(`${ORIGIN}/fake-acs/method-silent`));
      await m!.until('pay-3ds-method');
      expect(m!.root.querySelectorAll('.method-host iframe')).to.have.length(1);
      expect(m!.clock.pending()).to.deep.equal([10_000]);
      expect(listening.length).to.be.greaterThan(0);
      const el = m!.el;
      el.remove();
      await flush();
      expect(el.shadowRoot!.querySelectorAll('iframe')).to.have.length(0);
      expect(m!.clock.pending()).to.deep.equal([]);
      expect(listening.every((signal) => signal?.aborted)).to.equal(true);
      // Nothing more happens: no method-result, no error event.
      await m!.clock.tick(20_000);
      expect(m!.backend.requests('POST /widget/method-result')).to.have.length(0);
      expect(m!.of('pay-error')).to.have.length(0);
    } finally {
      window.addEventListener = origAdd;
    }
  });

  it('closes the challenge dialog and clears its timer when removed mid-challenge', async () => {
    await payWith(challengeAction());
    await m!.until('pay-challenge');
    const el = m!.el;
    el.remove();
    await flush();
    expect(el.shadowRoot!.querySelector('dialog')!.open).to.equal(false);
    expect(m!.clock.pending()).to.deep.equal([]);
    expect(m!.backend.requests('POST /widget/cancel')).to.have.length(0);
    await waitUntil(
      () => el.shadowRoot!.querySelector('dialog iframe') === null,
      'challenge frame removed',
    );
  });
});

describe('URLs that are not https', () => {
  const pwned = () => (window as unknown as { __pwned?: number }).__pwned;
  const JS = 'javascript:window.__pwned=1//';

  /** Nothing was navigated, posted or framed, and no script of the URL ran. */
  const nothingFollowed = (mm: Mounted) => {
    expect(mm.navigations).to.deep.equal([]);
    expect(mm.of('pay-redirect')).to.deep.equal([]);
    expect(mm.of('pay-challenge')).to.deep.equal([]);
    expect(dialog(mm).open).to.equal(false);
    expect(mm.root.querySelectorAll('iframe')).to.have.length(0);
    expect(pwned()).to.equal(undefined);
  };

  /** The element keeps following the order: after the pause it asks again and ends approved. */
  const keepsFollowing = async (mm: Mounted) => {
    expect(mm.backend.requests('GET /widget/next')).to.have.length(0);
    await mm.clock.tick(1000);
    await mm.until('pay-success');
    expect(mm.backend.requests('GET /widget/next')).to.have.length(1);
  };

  const cases: [string, NextAction, Record<string, string>][] = [
    ['a javascript: acsUrl', challengeAction({ acsUrl: JS }), {}],
    [
      'a javascript: acsUrl in redirect mode',
      challengeAction({ acsUrl: JS }),
      { challenge: 'redirect' },
    ],
    [
      'a data: 3DS 1.0.2 acsUrl',
      threeDs1Action('data:text/html,<script>parent.__pwned=1</script>'),
      {},
    ],
    [
      'a javascript: method URL',
      { action: 'method', order: order(), methodUrl: JS, methodData, timeoutMs: 10_000 },
      {},
    ],
    ['a javascript: redirect url', { action: 'redirect', order: order(), url: JS }, {}],
    [
      'an http: redirect url to another host',
      { action: 'redirect', order: order(), url: 'http://evil.example/' },
      {},
    ],
    [
      'a javascript: gateway page url',
      { action: 'html', order: order(), url: JS, launchUrl: fakeLaunch(null, {}, JS) },
      {},
    ],
    ['a javascript: launcher url', challengeAction({ launchUrl: JS }), {}],
  ];
  for (const [name, action, attrs] of cases) {
    it(`refuses ${name} with pay-error unsafe-url, follows nothing, keeps following the order`, async () => {
      await payWith(action, attrs);
      m!.backend.on('GET /widget/next', { json: finalApproved() });
      await m!.until('pay-error');
      await flush();
      expect(m!.of('pay-error')).to.deep.equal([
        {
          code: 'unsafe-url',
          message: `Refused to follow a ${action.action} URL that is not https`,
        },
      ]);
      nothingFollowed(m!);
      expect(m!.backend.requests('POST /widget/method-result')).to.have.length(0);
      await keepsFollowing(m!);
      nothingFollowed(m!);
    });
  }

  it('refuses a hosted form url to a plain-http host', async () => {
    m = await mount({ attrs: { mode: 'hosted' } });
    m.backend.on('POST /widget/hosted', {
      json: { action: 'redirect', order: order(), url: 'http://evil.example/hpp' },
    });
    m.backend.on('GET /widget/next', { json: finalApproved() });
    payButton(m).click();
    await m.until('pay-error');
    expect((m.of('pay-error')[0] as { code: string }).code).to.equal('unsafe-url');
    nothingFollowed(m);
    await keepsFollowing(m);
  });

  it('reports a URL once while the backend keeps answering it, and follows the honest answer', async () => {
    const bad = challengeAction({ acsUrl: JS });
    await payWith(bad);
    m!.backend.on('GET /widget/next', { json: bad }, { json: challengeAction() });
    await m!.until('pay-error');
    await m!.clock.tick(1000);
    await m!.backend.waitFor('GET /widget/next');
    await flush();
    await m!.clock.tick(1000);
    await m!.until('pay-challenge');
    // Two follows, then the long poll alongside the open challenge.
    expect(m!.backend.requests('GET /widget/next')).to.have.length(3);
    expect(m!.of('pay-error')).to.have.length(1);
    expect(await receivedBy(frame(m!), 'ACS challenge')).to.deep.equal({
      creq: CREQ,
      threeDSSessionData: 'c2Vzcy1kYXRhLTE',
    });
    expect(pwned()).to.equal(undefined);
  });
});
