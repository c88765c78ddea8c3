/** `POST /v1/csp-reports` on a running backend: both formats, the metric, the log, the event. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import request from 'supertest';
import {
  type Backend,
  MERCHANT_API_KEY,
  type Sandbox,
  startBackend,
  withSandboxAndBackend,
} from '../../../support/loopback-stack.js';

const REPORT = {
  'csp-report': {
    'document-uri': 'https://shop.example/checkout?order=1',
    'effective-directive': 'script-src-elem',
    'blocked-uri': 'https://evil.example/skim.js',
    disposition: 'enforce',
  },
};

describe('POST /v1/csp-reports', () => {
  let be: Backend;
  let sb: Sandbox;
  withSandboxAndBackend(
    (started) => {
      ({ be, sb } = started);
    },
    {
      config: {
        metricsToken: 'metrics-token-0123456789',
        webhook: { url: 'http://127.0.0.1:9/hook', secret: 'whsec-0123456789-0123456789' },
      },
    },
  );

  const post = (type: string, body: string) =>
    request(be.checkout.app).post('/v1/csp-reports').set('Content-Type', type).send(body);
  const metrics = async () =>
    (
      await request(be.checkout.app)
        .get('/metrics')
        .set('Authorization', 'Bearer metrics-token-0123456789')
    ).text;

  it('takes a report-uri report with no key: 204, a warn line, a count, one event', async () => {
    const res = await post('application/csp-report', JSON.stringify(REPORT));
    assert.equal(res.status, 204);
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.match(
      await metrics(),
      /pay_checkout_csp_reports_total\{directive="script-src-elem",blocked_origin="https:\/\/evil\.example"\} 1/,
    );
    const line = be.logs.map((l) => JSON.parse(l)).find((l) => l.csp);
    assert.equal(line.level, 40);
    assert.deepEqual(line.csp, {
      directive: 'script-src-elem',
      blockedOrigin: 'https://evil.example',
      document: 'https://shop.example/checkout',
      disposition: 'enforce',
    });
    // The same violation again: counted, but no second event within the alert window.
    assert.equal((await post('application/csp-report', JSON.stringify(REPORT))).status, 204);
    const events = await request(be.checkout.app)
      .get('/v1/events')
      .set('Authorization', `Bearer ${MERCHANT_API_KEY}`);
    const csp = events.body.events.filter(
      (e: { type: string }) => e.type === 'security.csp-violation',
    );
    assert.equal(csp.length, 1);
    assert.equal(csp[0].data.violation.blockedOrigin, 'https://evil.example');
  });

  it('takes a Reporting API batch, and answers its CORS preflight', async () => {
    const preflight = await request(be.checkout.app)
      .options('/v1/csp-reports')
      .set('Origin', 'https://shop.example')
      .set('Access-Control-Request-Method', 'POST');
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], '*');
    assert.match(preflight.headers['access-control-allow-headers'] ?? '', /Content-Type/);
    const batch = [
      {
        type: 'csp-violation',
        url: 'https://shop.example/pay',
        body: {
          blockedURL: 'inline',
          effectiveDirective: 'script-src-elem',
          disposition: 'enforce',
        },
      },
    ];
    assert.equal((await post('application/reports+json', JSON.stringify(batch))).status, 204);
    assert.match(
      await metrics(),
      /pay_checkout_csp_reports_total\{directive="script-src-elem",blocked_origin="inline"\} 1/,
    );
  });

  it('bad bodies get a 4xx naming what is wrong, never a 5xx', async () => {
    const cases: [string, string, number, RegExp][] = [
      ['text/plain', JSON.stringify(REPORT), 415, /Content-Type must be application\/csp-report/],
      ['application/csp-report', '{"csp-report":', 400, /not valid JSON/],
      ['application/csp-report', '{"report":{}}', 400, /must be \{ "csp-report"/],
      ['application/reports+json', '{}', 400, /must be an array of reports/],
      [
        'application/csp-report',
        JSON.stringify({ 'csp-report': { x: 'y'.repeat(17_000) } }),
        413,
        /too large/,
      ],
    ];
    for (const [type, body, status, message] of cases) {
      const res = await post(type, body);
      assert.equal(res.status, status, `${type} ${body.slice(0, 30)}`);
      assert.match(res.body.error.message, message);
    }
  });

  it('is rate limited per IP (429 with Retry-After)', async () => {
    const limited = await startBackend(sb, { cspReports: { perIp: 2 } });
    try {
      const send = () =>
        request(limited.checkout.app)
          .post('/v1/csp-reports')
          .set('Content-Type', 'application/csp-report')
          .send(JSON.stringify(REPORT));
      assert.deepEqual([(await send()).status, (await send()).status], [204, 204]);
      const refused = await send();
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers['retry-after']) > 0);
    } finally {
      await limited.close();
    }
  });
});
