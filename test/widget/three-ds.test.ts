import { expect } from '@open-wc/testing';
import {
  chooseWindowSize,
  collectBrowserInfo,
  emvLanguage,
  fitWindowSize,
  mapColorDepth,
} from '../../widget/src/three-ds/browser-info.js';
import { challengeForm, frameStyle } from '../../widget/src/three-ds/challenge.js';
import { METHOD_TIMEOUT_MS, WINDOW_SIZES } from '../../widget/src/three-ds/constants.js';
import { acceptReturnMessage, isReturnMessage } from '../../widget/src/three-ds/messages.js';
import { order } from './helpers/fake-backend.js';

describe('browser info', () => {
  const depths: [number, number][] = [
    [1, 1],
    [2, 1],
    [4, 4],
    [8, 8],
    [12, 8],
    [15, 15],
    [16, 16],
    [24, 24],
    [30, 24],
    [32, 32],
    [36, 32],
    [48, 48],
    [64, 48],
    [0, 24],
    [Number.NaN, 24],
  ];
  for (const [d, out] of depths)
    it(`colour depth ${d} -> ${out}`, () => expect(mapColorDepth(d)).to.equal(out));

  const langs: [string, string][] = [
    ['en', 'en'],
    ['en-US', 'en-US'],
    ['ru-RU', 'ru-RU'],
    ['zh-Hant-TW', 'zh-TW'],
    ['sr-Latn-RS', 'sr-RS'],
    ['es-419', 'es-419'],
    ['de-DE-1996', 'de-DE'],
    ['', 'en'],
  ];
  for (const [tag, out] of langs)
    it(`language "${tag}" -> "${out}"`, () => expect(emvLanguage(tag)).to.equal(out));

  it('collects the EMV fields from the window', () => {
    const fake = {
      screen: { colorDepth: 30, height: 1440, width: 2560 },
      navigator: { language: 'ru-RU', javaEnabled: () => false },
    } as unknown as Window;
    expect(collectBrowserInfo(fake, '03')).to.deep.equal({
      colorDepth: 24,
      javaEnabled: false,
      javascriptEnabled: true,
      language: 'ru-RU',
      screenHeight: 1440,
      screenWidth: 2560,
      timezoneOffset: new Date().getTimezoneOffset(),
      challengeWindowSize: '03',
    });
    const noJava = {
      screen: { colorDepth: 24, height: 1, width: 1 },
      navigator: { language: 'en' },
    } as unknown as Window;
    expect(collectBrowserInfo(noJava, '01').javaEnabled).to.equal(false);
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

  it('builds the 3DS 2 and 1.0.2 forms with the exact field names', () => {
    expect(
      challengeForm({
        action: 'challenge',
        order: order(),
        acsUrl: 'https://acs/c',
        creq: 'CR',
        challengeWindowSize: '02',
      }),
    ).to.deep.equal({
      url: 'https://acs/c',
      fields: { creq: 'CR', threeDSSessionData: undefined },
    });
    expect(
      challengeForm({
        action: '3ds1',
        order: order(),
        acsUrl: 'https://acs/1',
        paReq: 'P',
        md: 'M',
        termUrl: 'https://b/r',
      }),
    ).to.deep.equal({
      url: 'https://acs/1',
      fields: { PaReq: 'P', MD: 'M', TermUrl: 'https://b/r' },
    });
    expect(challengeForm({ action: 'html', order: order(), html: '<p>' })).to.equal(undefined);
  });
});

describe('return messages', () => {
  const ok = { source: 'pay-checkout', type: 'challenge-complete', orderId: 'o-1' };
  const ev = (data: unknown, origin = 'https://shop.example') =>
    new MessageEvent('message', { data, origin });
  const cases: [string, MessageEvent, boolean][] = [
    ['the right message', ev(ok), true],
    ['the right message as JSON text', ev(JSON.stringify(ok)), true],
    ['another origin', ev(ok, 'https://evil.example'), false],
    ['a sub-domain', ev(ok, 'https://pay.shop.example'), false],
    ['another port', ev(ok, 'https://shop.example:8443'), false],
    ['http instead of https', ev(ok, 'http://shop.example'), false],
    ['another order', ev({ ...ok, orderId: 'o-2' }), false],
    ['another source', ev({ ...ok, source: 'adyen' }), false],
    ['an unknown type', ev({ ...ok, type: 'challenge-done' }), false],
    ['a numeric order id', ev({ ...ok, orderId: 1 }), false],
    ['null', ev(null), false],
    ['broken JSON', ev('{"source":'), false],
  ];
  for (const [name, e, accepted] of cases) {
    it(`${accepted ? 'accepts' : 'ignores'} ${name}`, () => {
      const msg = acceptReturnMessage(e, 'https://shop.example', 'o-1');
      expect(msg).to.deep.equal(accepted ? ok : undefined);
    });
  }
  it('copies only the known fields', () => {
    expect(
      acceptReturnMessage(ev({ ...ok, extra: '<script>' }), 'https://shop.example', 'o-1'),
    ).to.deep.equal(ok);
    expect(isReturnMessage({ source: 'pay-checkout', type: 'final', orderId: 'x' })).to.equal(true);
  });
});
