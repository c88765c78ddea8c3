import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CSP_REPORT,
  CspReportError,
  originOf,
  parseCspReports,
  REPORTS_JSON,
} from '../../../../server/src/checkout/security/csp-violations.js';

test('report-uri format: directive, blocked origin, page without query; sample and policy dropped', () => {
  const body = {
    'csp-report': {
      'document-uri': 'https://shop.example/checkout?order=123#pay',
      'violated-directive': 'script-src-elem',
      'effective-directive': 'script-src-elem',
      'original-policy': "script-src 'self'",
      'blocked-uri': 'https://evil.example:8443/skim.js?card=4111',
      'script-sample': '4111111111111111',
      disposition: 'enforce',
    },
  };
  assert.deepEqual(parseCspReports(CSP_REPORT, body), [
    {
      directive: 'script-src-elem',
      blockedOrigin: 'https://evil.example:8443',
      document: 'https://shop.example/checkout',
      disposition: 'enforce',
    },
  ]);
});

test('report-to format: csp-violation reports only, others in the batch skipped', () => {
  const body = [
    { type: 'deprecation', url: 'https://shop.example/', body: { id: 'x' } },
    {
      type: 'csp-violation',
      url: 'https://shop.example/pay',
      body: {
        documentURL: 'https://shop.example/pay?x=1',
        blockedURL: 'inline',
        effectiveDirective: 'script-src-elem',
        disposition: 'report',
        sample: 'steal()',
      },
    },
  ];
  assert.deepEqual(parseCspReports(REPORTS_JSON, body), [
    {
      directive: 'script-src-elem',
      blockedOrigin: 'inline',
      document: 'https://shop.example/pay',
      disposition: 'report',
    },
  ]);
});

test('an older browser’s violated-directive, odd values, and keywords', () => {
  const [v] = parseCspReports(CSP_REPORT, {
    'csp-report': { 'violated-directive': "connect-src 'self'", 'blocked-uri': 'data' },
  });
  assert.deepEqual(v, {
    directive: 'connect-src',
    blockedOrigin: 'unknown',
    document: 'unknown',
    disposition: 'enforce',
  });
  assert.equal(originOf('data:text/javascript,alert(1)'), 'data');
  assert.equal(originOf('blob:https://shop.example/1-2'), 'https://shop.example');
  assert.equal(originOf('eval'), 'eval');
  assert.equal(originOf(42), 'unknown');
  const [odd] = parseCspReports(CSP_REPORT, {
    'csp-report': { 'effective-directive': '<script>', 'blocked-uri': 'javascript:x' },
  });
  assert.equal(odd?.directive, 'other');
  const [madeUp] = parseCspReports(CSP_REPORT, {
    'csp-report': { 'effective-directive': 'zzz-src' },
  });
  assert.equal(madeUp?.directive, 'other', 'a made-up name never becomes a label');
  const [long] = parseCspReports(CSP_REPORT, {
    'csp-report': { 'document-uri': `https://shop.example/${'a'.repeat(500)}` },
  });
  assert.equal(long?.document.length, 200);
  assert.equal(odd?.blockedOrigin, 'javascript');
});

test('bodies that are not reports are refused, naming what is wrong', () => {
  const refused = (type: string, body: unknown) =>
    assert.throws(() => parseCspReports(type, body), CspReportError);
  refused(CSP_REPORT, {});
  refused(CSP_REPORT, { 'csp-report': 'x' });
  refused(CSP_REPORT, []);
  refused(REPORTS_JSON, { type: 'csp-violation' });
  refused(REPORTS_JSON, [1]);
  assert.throws(
    () => parseCspReports(REPORTS_JSON, [{ type: 'csp-violation', body: null }]),
    /body\[0\]\.body: must be an object/,
  );
});
