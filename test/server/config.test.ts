/** config.ts: every variable validated once, one clear line naming the bad one. */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import express from 'express';
import request from 'supertest';
import { clientIp } from '../../server/src/checkout/http/request-facts.js';
import {
  backendPgliteFolder,
  ConfigError,
  demoAllowed,
  isLoopbackHost,
  listenHost,
  parseServerConfig,
  pgliteFolder,
} from '../../server/src/config.js';

const dir = mkdtempSync(join(tmpdir(), 'config-test-'));
const keyFile = join(dir, 'key.pem');
writeFileSync(keyFile, 'not checked here');

const GATEWAY = {
  GATEWAY_URL: 'https://gate.example.com/paynet/',
  ENDPOINT_ID: '1111',
  MERCHANT_LOGIN: 'merchant',
  MERCHANT_CONTROL_KEY: 'B17F59B4-A7DC-41B4-8FF9-37D986B43D20',
  MERCHANT_PRIVATE_KEY_FILE: keyFile,
  MERCHANT_API_KEY: 'a'.repeat(32),
  JWT_SECRET: 'b'.repeat(48),
  PUBLIC_URL: 'https://pay.shop.example',
  ALLOWED_ORIGINS: 'https://shop.example, https://www.shop.example',
};

function fails(env: Record<string, string>, message: string) {
  assert.throws(
    () => parseServerConfig(env, { cwd: dir }),
    (error: unknown) => error instanceof ConfigError && error.message === message,
  );
}

describe('config', () => {
  it('defaults to the embedded sandbox with nothing set', () => {
    const config = parseServerConfig({}, { cwd: dir });
    assert.equal(config.gateway, undefined);
    assert.equal(config.port, 3000);
    assert.equal(config.sandboxPort, 4000);
    assert.equal(config.dataDir, join(dir, 'data'));
    assert.equal(config.publicUrl, 'http://localhost:3000');
    assert.deepEqual(config.allowedOrigins, ['http://localhost:3000']);
    assert.equal(config.logLevel, 'info');
    assert.equal(config.databaseUrl, undefined);
  });

  it('reads a full real-gateway configuration', () => {
    const config = parseServerConfig(
      {
        ...GATEWAY,
        PORT: '8080',
        DATABASE_URL: 'postgres://u@db/x',
        WEBHOOK_URL: 'https://shop.example/hooks',
        WEBHOOK_SECRET: 'w'.repeat(16),
        LOG_LEVEL: 'warn',
      },
      { cwd: dir },
    );
    assert.deepEqual(config.gateway, {
      url: 'https://gate.example.com/paynet',
      endpointId: '1111',
      login: 'merchant',
      controlKey: 'B17F59B4-A7DC-41B4-8FF9-37D986B43D20',
      privateKeyFile: keyFile,
    });
    assert.deepEqual(config.allowedOrigins, ['https://shop.example', 'https://www.shop.example']);
    assert.equal(config.port, 8080);
    assert.deepEqual(config.webhook, { url: 'https://shop.example/hooks', secret: 'w'.repeat(16) });
    assert.equal(config.logLevel, 'warn');
  });

  it('EVENT_RETENTION_DAYS: 30 days by default, whole days from 1 to 3650, without WEBHOOK_URL too', () => {
    assert.equal(parseServerConfig({}, { cwd: dir }).eventRetentionDays, 30);
    assert.equal(
      parseServerConfig({ EVENT_RETENTION_DAYS: ' ' }, { cwd: dir }).eventRetentionDays,
      30,
    );
    assert.equal(
      parseServerConfig({ EVENT_RETENTION_DAYS: '7' }, { cwd: dir }).eventRetentionDays,
      7,
    );
    assert.equal(
      parseServerConfig({ EVENT_RETENTION_DAYS: '3650' }, { cwd: dir }).eventRetentionDays,
      3650,
    );
    for (const bad of ['0', '-1', '1.5', '3651', 'thirty', '30d', 'Infinity']) {
      fails(
        { EVENT_RETENTION_DAYS: bad },
        'EVENT_RETENTION_DAYS: must be a whole number of days from 1 to 3650',
      );
    }
  });

  it('reads the payment link page’s look (PAY_PAGE_*), hex colours and one-line name only', () => {
    const config = parseServerConfig(
      {
        PAY_PAGE_MERCHANT_NAME: 'Corner Shop',
        PAY_PAGE_LOGO_URL: 'https://shop.example/logo.svg',
        PAY_PAGE_COLOR_PRIMARY: '#0a7d55',
        PAY_PAGE_COLOR_TEXT: '#222',
      },
      { cwd: dir },
    );
    assert.deepEqual(config.paymentLinkPage, {
      merchantName: 'Corner Shop',
      logoUrl: 'https://shop.example/logo.svg',
      colors: { primary: '#0a7d55', background: undefined, text: '#222' },
    });
    fails(
      { PAY_PAGE_COLOR_PRIMARY: 'red' },
      'PAY_PAGE_COLOR_PRIMARY: must be a hex colour, e.g. #1a73e8',
    );
    fails(
      { PAY_PAGE_COLOR_BACKGROUND: '#fff;x' },
      'PAY_PAGE_COLOR_BACKGROUND: must be a hex colour, e.g. #1a73e8',
    );
    fails({ PAY_PAGE_LOGO_URL: 'javascript:x' }, 'PAY_PAGE_LOGO_URL: must be an http(s) URL');
    fails(
      { PAY_PAGE_MERCHANT_NAME: 'Corner\u0007Shop' },
      'PAY_PAGE_MERCHANT_NAME: must be one line, without control characters',
    );
  });

  it('names the missing or malformed variable in one line', () => {
    fails({ PORT: 'abc' }, 'PORT: must be a port number');
    fails({ PORT: '70000' }, 'PORT: must be a port number');
    fails({ GATEWAY_URL: 'ftp://x' }, 'GATEWAY_URL: must be an http(s) URL');
    fails(
      { GATEWAY_URL: 'https://gate.example.com' },
      'ENDPOINT_ID: is required when GATEWAY_URL is set',
    );
    fails({ ...GATEWAY, ENDPOINT_ID: 'abc' }, 'ENDPOINT_ID: must be the numeric endpoint id');
    fails(
      { ...GATEWAY, MERCHANT_API_KEY: '' },
      'MERCHANT_API_KEY: is required when GATEWAY_URL is set',
    );
    fails({ ...GATEWAY, JWT_SECRET: 'short' }, 'JWT_SECRET: must be at least 32 characters');
    fails(
      { ...GATEWAY, MERCHANT_PRIVATE_KEY_FILE: 'missing.pem' },
      `MERCHANT_PRIVATE_KEY_FILE: no file at ${join(dir, 'missing.pem')}`,
    );
    fails(
      { ALLOWED_ORIGINS: 'https://shop.example/path' },
      'ALLOWED_ORIGINS: "https://shop.example/path" is not an exact origin (scheme://host[:port])',
    );
    fails({ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL: must be a postgres:// URL');
    fails(
      { LOG_LEVEL: 'loud' },
      'LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent',
    );
    fails(
      { WEBHOOK_URL: 'https://shop.example/hooks' },
      'WEBHOOK_SECRET: is required when WEBHOOK_URL is set',
    );
    fails(
      { ENDPOINT_ID: '1111' },
      'ENDPOINT_ID: is set but GATEWAY_URL is not (set both, or neither for the sandbox)',
    );
    fails(
      { TRUST_PROXY: 'true' },
      'TRUST_PROXY: "true" is neither a hop count nor a proxy address, subnet or name (loopback, linklocal, uniquelocal)',
    );
  });

  it('TRUST_PROXY: no proxy by default, a hop count, or trusted addresses', () => {
    assert.equal(parseServerConfig({}).trustProxy, false);
    assert.equal(parseServerConfig({ TRUST_PROXY: '1' }).trustProxy, 1);
    assert.deepEqual(parseServerConfig({ TRUST_PROXY: '10.0.0.0/8, loopback' }).trustProxy, [
      '10.0.0.0/8',
      'loopback',
    ]);
  });

  it('behind a trusted proxy the client IP is the one it forwards; otherwise the socket peer', async () => {
    const ipSeen = async (trust: string | undefined) => {
      const app = express();
      app.set('trust proxy', parseServerConfig(trust ? { TRUST_PROXY: trust } : {}).trustProxy);
      app.get('/ip', (req, res) => {
        res.send(clientIp(req));
      });
      return (await request(app).get('/ip').set('X-Forwarded-For', '203.0.113.7')).text;
    };
    assert.equal(await ipSeen('1'), '203.0.113.7');
    assert.equal(await ipSeen('loopback'), '203.0.113.7');
    assert.equal(await ipSeen(undefined), '127.0.0.1');
    assert.equal(await ipSeen('10.0.0.0/8'), '127.0.0.1');
  });

  it('HOST: 127.0.0.1 for start, every interface for server, unless HOST says', () => {
    const none = parseServerConfig({});
    assert.equal(none.host, undefined);
    assert.equal(listenHost(none, 'start'), '127.0.0.1');
    assert.equal(listenHost(none, 'server'), undefined);
    const all = parseServerConfig({ HOST: '0.0.0.0' });
    assert.equal(listenHost(all, 'start'), '0.0.0.0');
    assert.equal(listenHost(all, 'server'), '0.0.0.0');
    assert.equal(listenHost(parseServerConfig({ HOST: '[::1]' }), 'server'), '::1');
    assert.equal(listenHost(parseServerConfig({ HOST: ' localhost ' }), 'server'), 'localhost');
    fails({ HOST: 'http://0.0.0.0' }, 'HOST: must be an IP address or a host name');
    fails({ HOST: 'a b' }, 'HOST: must be an IP address or a host name');
  });

  it('the PGlite folder of each command: one per process, shared by the backend and its sandbox', () => {
    const data = { DATA_DIR: dir };
    const url = { DATABASE_URL: 'postgres://db.example/pay' };
    const embedded = parseServerConfig(data);
    assert.equal(backendPgliteFolder(embedded), join(dir, 'pglite'));
    assert.equal(pgliteFolder(embedded, 'start'), join(dir, 'pglite'));
    assert.equal(pgliteFolder(embedded, 'server'), join(dir, 'pglite'));
    assert.equal(pgliteFolder(embedded, 'sandbox'), join(dir, 'sandbox'));
    const alone = parseServerConfig({ ...GATEWAY, ...data }, { cwd: dir });
    assert.equal(backendPgliteFolder(alone), join(dir, 'checkout'));
    assert.equal(pgliteFolder(alone, 'server'), join(dir, 'checkout'));
    // On PostgreSQL the backend opens no PGlite; an embedded sandbox keeps its own.
    assert.equal(
      pgliteFolder(parseServerConfig({ ...data, ...url }), 'start'),
      join(dir, 'sandbox'),
    );
    assert.equal(pgliteFolder(parseServerConfig({ ...data, ...url }), 'sandbox'), undefined);
    assert.equal(
      pgliteFolder(parseServerConfig({ ...GATEWAY, ...data, ...url }, { cwd: dir }), 'server'),
      undefined,
    );
  });

  it('DEMO: off unless set to an explicit yes', () => {
    assert.equal(parseServerConfig({}).demo, false);
    assert.equal(parseServerConfig({ DEMO: '1' }).demo, true);
    assert.equal(parseServerConfig({ DEMO: 'true' }).demo, true);
    assert.equal(parseServerConfig({ DEMO: '0' }).demo, false);
    assert.equal(parseServerConfig({ DEMO: 'off' }).demo, false);
    fails({ DEMO: 'please' }, 'DEMO: must be 1 or 0');
  });

  it('the demo: with the embedded sandbox under start; a real gateway needs DEMO=1; never under server', () => {
    const sandbox = parseServerConfig({});
    assert.equal(demoAllowed(sandbox, 'start'), true);
    assert.equal(demoAllowed(sandbox, 'server'), false);
    const real = parseServerConfig(GATEWAY, { cwd: dir });
    assert.throws(
      () => demoAllowed(real, 'start'),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.variable === 'DEMO' &&
        error.message ===
          'DEMO: not set, and GATEWAY_URL is a real gateway: the demo shop would let anyone who reaches it capture, return and pay out with the merchant API key. Run `npm run server` for the backend alone, or set DEMO=1 to run the demo anyway',
    );
    assert.equal(demoAllowed(real, 'server'), false);
    const explicit = parseServerConfig({ ...GATEWAY, DEMO: '1' }, { cwd: dir });
    assert.equal(demoAllowed(explicit, 'start'), true);
    assert.equal(demoAllowed(explicit, 'server'), false);
  });

  it('with a real gateway, GATEWAY_URL and PUBLIC_URL are https: (loopback exempt)', () => {
    const httpsOnly =
      'must be an https: URL when GATEWAY_URL is set (http: only for localhost, 127.0.0.0/8 or [::1])';
    fails(
      { ...GATEWAY, GATEWAY_URL: 'http://gate.example.com/paynet' },
      `GATEWAY_URL: ${httpsOnly}`,
    );
    fails({ ...GATEWAY, PUBLIC_URL: 'http://pay.shop.example' }, `PUBLIC_URL: ${httpsOnly}`);
    // Names that only look local are not loopback.
    fails(
      { ...GATEWAY, GATEWAY_URL: 'http://localhost.evil.example' },
      `GATEWAY_URL: ${httpsOnly}`,
    );
    fails(
      { ...GATEWAY, GATEWAY_URL: 'http://127.0.0.1.nip.io/paynet' },
      `GATEWAY_URL: ${httpsOnly}`,
    );
    fails({ ...GATEWAY, PUBLIC_URL: 'http://10.0.0.5:3000' }, `PUBLIC_URL: ${httpsOnly}`);
    // Events carry the customer's order data: a webhook endpoint elsewhere is https: too.
    fails(
      { ...GATEWAY, WEBHOOK_URL: 'http://shop.example/hooks', WEBHOOK_SECRET: 'w'.repeat(32) },
      `WEBHOOK_URL: ${httpsOnly}`,
    );
    assert.equal(
      parseServerConfig(
        { ...GATEWAY, WEBHOOK_URL: 'http://127.0.0.1:8080/hooks', WEBHOOK_SECRET: 'w'.repeat(32) },
        { cwd: dir },
      ).webhook?.url,
      'http://127.0.0.1:8080/hooks',
    );
    for (const [gatewayUrl, publicUrl] of [
      ['http://127.0.0.1:4000/paynet', 'http://localhost:3000'],
      ['http://localhost:4000/paynet', 'http://127.0.0.2:3000'],
      ['http://[::1]:4000/paynet', 'http://[::1]:3000'],
    ]) {
      const config = parseServerConfig(
        { ...GATEWAY, GATEWAY_URL: gatewayUrl, PUBLIC_URL: publicUrl },
        { cwd: dir },
      );
      assert.equal(config.gateway?.url, gatewayUrl);
      assert.equal(config.publicUrl, publicUrl);
    }
    // Without a real gateway PUBLIC_URL is the sandbox's dev origin: http stays allowed.
    assert.equal(
      parseServerConfig({ PUBLIC_URL: 'http://dev.box:3000' }).publicUrl,
      'http://dev.box:3000',
    );
  });

  it('PUBLIC_URL is an origin a page can have plus at most a path; anything else is refused in one line', () => {
    const shape =
      "must be the backend's base URL as shoppers' browsers open it (scheme://host[:port][/path]), not with";
    const why = 'the return pages reach the widget from its origin';
    for (const [url, what] of [
      ['https://pay.shop.example/?', 'a query'],
      ['https://pay.shop.example/pay?tenant=1', 'a query'],
      ['https://pay.shop.example/#top', 'a fragment'],
      ['https://user:secret@pay.shop.example', 'a user name or password'],
      ['http://0.0.0.0:3000', 'the host 0.0.0.0, an address to listen on, not one a browser opens'],
      ['http://[::]:3000', 'the host [::], an address to listen on, not one a browser opens'],
    ] as const) {
      fails({ PUBLIC_URL: url }, `PUBLIC_URL: ${shape} ${what}: ${why}`);
      fails({ ...GATEWAY, PUBLIC_URL: url }, `PUBLIC_URL: ${shape} ${what}: ${why}`);
    }
    // An origin, or an origin with the path prefix a proxy mounts the backend under.
    for (const [url, read] of [
      ['https://pay.shop.example/', 'https://pay.shop.example'],
      ['https://shop.example/pay/', 'https://shop.example/pay'],
      ['https://pay.shop.example:8443', 'https://pay.shop.example:8443'],
    ] as const) {
      assert.equal(
        parseServerConfig({ ...GATEWAY, PUBLIC_URL: url }, { cwd: dir }).publicUrl,
        read,
      );
    }
  });

  it('with the demo shop PUBLIC_URL is an origin alone: the demo widget takes the page origin as backend', () => {
    const prefixed = parseServerConfig({ PUBLIC_URL: 'http://localhost:3000/pay' }, { cwd: dir });
    assert.throws(
      () => demoAllowed(prefixed, 'start'),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.message ===
          "PUBLIC_URL: must be an origin alone (scheme://host[:port]) with the demo shop, not with the path /pay: the demo page is served at this backend's root and its widget takes the page's origin as the backend",
    );
    // The backend alone may sit under a path (a proxy maps it); no demo, nothing to check.
    assert.equal(demoAllowed(prefixed, 'server'), false);
    assert.equal(
      demoAllowed(
        parseServerConfig({ PUBLIC_URL: 'http://localhost:3000/' }, { cwd: dir }),
        'start',
      ),
      true,
    );
  });

  it('loopback hosts are localhost, 127.0.0.0/8 and [::1] only', () => {
    for (const host of ['localhost', '127.0.0.1', '127.255.0.9', '[::1]'])
      assert.equal(isLoopbackHost(host), true, host);
    for (const host of [
      'localhost.example',
      '128.0.0.1',
      '0.0.0.0',
      '[::]',
      '10.0.0.1',
      'x127.0.0.1',
    ])
      assert.equal(isLoopbackHost(host), false, host);
  });
});
