import { expect } from '@open-wc/testing';
import type { NextAction } from '../../contract/api-types.js';
import { isSafeUrl, unsafeUrlOf } from '../../contract/safe-url.js';
import { order } from './support/fake-backend.js';

describe('safe URLs', () => {
  it('passes https anywhere and http to loopback only', () => {
    for (const url of [
      'https://acs.bank.example/challenge?x=1',
      'HTTPS://ACS.BANK.EXAMPLE/',
      'http://127.0.0.1:4010/acs',
      'http://127.9.8.7/acs',
      'http://127.1/acs',
      'http://localhost:3000/gateway-page/abc',
      'http://[::1]:8080/',
      'http://[0:0:0:0:0:0:0:1]/',
    ]) {
      expect(isSafeUrl(url), url).to.equal(true);
    }
  });

  it('refuses script, data, plain http to other hosts, and anything unparsable', () => {
    for (const url of [
      'javascript:alert(1)//',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'blob:https://shop.example/1',
      'file:///etc/passwd',
      'ftp://acs.example/',
      'http://evil.example/',
      'http://127.0.0.1.evil.example/',
      'http://localhost.evil.example/',
      'http://10.0.0.1/',
      'http://[::ffff:127.0.0.1]/',
      '//evil.example/',
      '/gateway-page/abc',
      'https://',
      '',
      'not a url',
    ]) {
      expect(isSafeUrl(url), url).to.equal(false);
    }
    expect(isSafeUrl(undefined)).to.equal(false);
    expect(isSafeUrl(42)).to.equal(false);
  });

  it('names the URL an action would follow when it fails the rule', () => {
    const o = order();
    const bad = 'javascript:alert(1)//';
    const launch = 'https://b/launch/ref/key';
    const actions: [NextAction, string | undefined][] = [
      [{ action: 'method', order: o, methodUrl: bad, methodData: 'd', timeoutMs: 1 }, bad],
      [{ action: 'method', order: o, timeoutMs: 1 }, undefined],
      [
        { action: 'method', order: o, methodUrl: 'https://acs/m', launchUrl: bad, timeoutMs: 1 },
        bad,
      ],
      [
        {
          action: 'challenge',
          order: o,
          acsUrl: bad,
          creq: 'c',
          challengeWindowSize: '02',
          launchUrl: launch,
        },
        bad,
      ],
      [
        {
          action: 'challenge',
          order: o,
          acsUrl: 'https://acs/c',
          creq: 'c',
          challengeWindowSize: '02',
          launchUrl: 'http://evil.example/launch',
        },
        'http://evil.example/launch',
      ],
      [
        {
          action: '3ds1',
          order: o,
          acsUrl: bad,
          paReq: 'p',
          md: '',
          termUrl: 'https://b/r',
          launchUrl: launch,
        },
        bad,
      ],
      [
        { action: 'html', order: o, url: 'http://evil.example/page', launchUrl: launch },
        'http://evil.example/page',
      ],
      [{ action: 'html', order: o, url: 'https://b/gateway-page/r', launchUrl: launch }, undefined],
      [{ action: 'redirect', order: o, url: bad }, bad],
      [{ action: 'redirect', order: o, url: 'https://gw.example/form' }, undefined],
      [
        { action: 'redirect', order: o, url: 'https://gw.example/3ds', launchUrl: 'http://evil/l' },
        'http://evil/l',
      ],
      [{ action: 'wait', order: o, retryAfterMs: 1 }, undefined],
      [{ action: 'final', order: o }, undefined],
    ];
    for (const [action, expected] of actions) {
      expect(unsafeUrlOf(action), action.action).to.equal(expected);
    }
  });
});
