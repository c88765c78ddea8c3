import { expect } from '@open-wc/testing';
import { METHOD_TIMEOUT_MS, WINDOW_SIZES } from '../../contract/three-ds.js';
import {
  chooseWindowSize,
  collectBrowserInfo,
  fitWindowSize,
} from '../../widget/src/three-ds/browser-info.js';
import { actionWindowSize, frameStyle } from '../../widget/src/three-ds/challenge.js';
import { markLaunched, wasLaunched } from '../../widget/src/three-ds/launched.js';
import { isReturnMessage, returnMessage } from '../../widget/src/three-ds/messages.js';
import { order } from './support/fake-backend.js';

describe('browser info', () => {
  it('collects the EMV fields from the window', () => {
    const fake = {
      screen: { colorDepth: 30, height: 1440, width: 2560 },
      navigator: { language: 'ru-RU' },
    } as unknown as Window;
    expect(collectBrowserInfo(fake, '03')).to.deep.equal({
      colorDepth: 30,
      language: 'ru-RU',
      screenHeight: 1440,
      screenWidth: 2560,
      timezoneOffset: new Date().getTimezoneOffset(),
      challengeWindowSize: '03',
    });
    const plain = {
      screen: { colorDepth: 24, height: 1, width: 1 },
      navigator: { language: 'en' },
    } as unknown as Window;
    // The browser's language goes as it is (the backend normalises it), `en` when there is none.
    const odd = { ...plain, navigator: { language: 'zh-Hant-TW-x-private' } } as unknown as Window;
    expect(collectBrowserInfo(odd, '01').language).to.equal('zh-Hant-TW-x-private');
    const none = { ...plain, navigator: {} } as unknown as Window;
    expect(collectBrowserInfo(none, '01').language).to.equal('en');
  });

  it('the time zone offset keeps its sign (minutes, positive west of UTC)', () => {
    const real = Date.prototype.getTimezoneOffset;
    try {
      Date.prototype.getTimezoneOffset = () => -60; // UTC+1
      expect(collectBrowserInfo(window, '02').timezoneOffset).to.equal(-60);
      Date.prototype.getTimezoneOffset = () => 240; // UTC-4
      expect(collectBrowserInfo(window, '02').timezoneOffset).to.equal(240);
    } finally {
      Date.prototype.getTimezoneOffset = real;
    }
  });

  const sizes: [number, number, string | undefined, string][] = [
    [375, 700, undefined, '05'],
    [459, 900, undefined, '05'],
    [460, 600, undefined, '02'],
    [800, 600, undefined, '02'],
    [1280, 800, undefined, '03'],
    [375, 700, '01', '01'],
    [1280, 800, '04', '04'],
  ];
  for (const [w, h, req, out] of sizes) {
    it(`viewport ${w}x${h}${req ? ` asked ${req}` : ''} -> ${out}`, () =>
      expect(chooseWindowSize(w, h, req as '01' | undefined)).to.equal(out));
  }

  it('fits a requested size into the viewport', () => {
    expect(fitWindowSize('02', 375, 700)).to.equal('05');
    expect(fitWindowSize('01', 375, 700)).to.equal('01');
    expect(fitWindowSize('03', 1280, 800)).to.equal('03');
    expect(fitWindowSize('03', 1280, 600)).to.equal('05');
    expect(fitWindowSize('05', 1280, 800)).to.equal('05');
  });

  it('window sizes and the Method window follow EMV', () => {
    expect(WINDOW_SIZES).to.deep.equal({
      '01': [250, 400],
      '02': [390, 400],
      '03': [500, 600],
      '04': [600, 400],
      '05': null,
    });
    expect(METHOD_TIMEOUT_MS).to.equal(10_000);
    expect(frameStyle('04')).to.equal('width:600px;height:400px');
    expect(frameStyle('05')).to.equal('width:100%;height:100%');
  });

  it("sizes a challenge's frame as the backend named it, a 1.0.2 page at 390x400, a gateway page as asked", () => {
    const challenge = {
      action: 'challenge',
      order: order(),
      acsUrl: 'https://acs/c',
      creq: 'opaque',
      challengeWindowSize: '04',
      launchUrl: 'https://b/launch/r/k',
    } as const;
    expect(actionWindowSize(challenge, '03')).to.equal('04');
    const threeDs1 = {
      action: '3ds1',
      order: order(),
      acsUrl: 'https://acs/1',
      paReq: 'P',
      md: '',
      termUrl: 'https://b/r',
      launchUrl: 'https://b/launch/r/k',
    } as const;
    expect(actionWindowSize(threeDs1, '03')).to.equal('02');
    expect(actionWindowSize(threeDs1, '05')).to.equal('05');
    const page = {
      action: 'html',
      order: order(),
      url: 'https://b/gateway-page/r',
      launchUrl: 'https://b/launch/r/k',
    } as const;
    expect(actionWindowSize(page, '03')).to.equal('03');
  });
});

describe('launched steps', () => {
  it('remembers launcher pages in storage, the newest 20', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => store.set(k, v),
    } as unknown as Storage;
    expect(wasLaunched(storage, 'https://b/launch/r/1')).to.equal(false);
    markLaunched(storage, 'https://b/launch/r/1');
    expect(wasLaunched(storage, 'https://b/launch/r/1')).to.equal(true);
    for (let i = 2; i <= 21; i++) markLaunched(storage, `https://b/launch/r/${i}`);
    expect(wasLaunched(storage, 'https://b/launch/r/1')).to.equal(false);
    expect(wasLaunched(storage, 'https://b/launch/r/21')).to.equal(true);
    store.set('pay-checkout:launched', '{broken');
    expect(wasLaunched(storage, 'https://b/launch/r/21')).to.equal(false);
    expect(wasLaunched(undefined, 'x')).to.equal(false);
    const refusing = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('quota', 'QuotaExceededError');
      },
    } as unknown as Storage;
    expect(() => markLaunched(refusing, 'x')).not.to.throw();
  });
});

describe('return messages', () => {
  const ok = { source: 'pay-checkout', type: 'challenge-complete', orderId: 'o-1' };
  const ev = (data: unknown, origin = 'https://shop.example') =>
    new MessageEvent('message', { data, origin });
  const cases: [string, MessageEvent, boolean][] = [
    ['the right message', ev(ok), true],
    // The return page posts an object: the same message as JSON text is no return page's.
    ['the right message as JSON text', ev(JSON.stringify(ok)), false],
    ['another origin', ev(ok, 'https://evil.example'), false],
    ['a sub-domain', ev(ok, 'https://pay.shop.example'), false],
    ['another port', ev(ok, 'https://shop.example:8443'), false],
    ['http instead of https', ev(ok, 'http://shop.example'), false],
    ['another order', ev({ ...ok, orderId: 'o-2' }), false],
    ['another source', ev({ ...ok, source: 'adyen' }), false],
    ['an unknown type', ev({ ...ok, type: 'challenge-done' }), false],
    ['a type this step does not wait for', ev({ ...ok, type: 'method-complete' }), false],
    ['a numeric order id', ev({ ...ok, orderId: 1 }), false],
    ['null', ev(null), false],
    ['a number', ev(42), false],
    ['broken JSON', ev('{"source":'), false],
  ];
  for (const [name, e, accepted] of cases) {
    it(`${accepted ? 'accepts' : 'ignores'} ${name}`, () => {
      const types = ['challenge-complete', 'final'] as const;
      expect(isReturnMessage(e, 'https://shop.example', 'o-1', types)).to.equal(accepted);
    });
  }

  it('a wait ends on the first such message and stops listening when aborted', async () => {
    const post = (data: unknown) =>
      window.dispatchEvent(new MessageEvent('message', { data, origin: location.origin }));
    const stop = new AbortController();
    let heard = false;
    void returnMessage(location.origin, 'o-1', ['final'], stop.signal).then(() => {
      heard = true;
    });
    post({ ...ok, type: 'method-complete' });
    await Promise.resolve();
    expect(heard).to.equal(false);
    post({ ...ok, type: 'final' });
    await Promise.resolve();
    expect(heard).to.equal(true);

    let late = false;
    void returnMessage(location.origin, 'o-1', ['final'], stop.signal).then(() => {
      late = true;
    });
    stop.abort();
    post({ ...ok, type: 'final' });
    await Promise.resolve();
    expect(late).to.equal(false);
  });
});
