/** createPayCheckout's options: validated when the factory is called, errors naming the field. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError } from '../../../server/src/config.js';
import { type PayCheckoutOptions, resolveOptions } from '../../../server/src/library/options.js';
import { createPayCheckout } from '../../../server/src/library/pay-checkout.js';

const VALID: PayCheckoutOptions = {
  gateway: {
    url: 'https://gate.example.com/paynet/',
    endpointId: '1234',
    login: 'shop',
    controlKey: 'control-key-of-shop',
  },
  merchantApiKey: 'merchant-api-key-0123456789',
  jwtSecret: 'jwt-secret-0123456789-0123456789-abcdef',
  publicUrl: 'https://shop.example/pay/',
  database: { url: 'postgres://db.example/shop' },
};

function rejects(options: unknown, field: string, message: string): void {
  assert.throws(
    () => resolveOptions(options),
    (error: unknown) =>
      error instanceof ConfigError &&
      error.variable === field &&
      error.message === `${field}: ${message}`,
    `${field}: ${message}`,
  );
}

describe('createPayCheckout options', () => {
  it('a valid object: trailing slashes dropped, allowed origins default to publicUrl’s origin', () => {
    const { config, database } = resolveOptions(VALID);
    assert.equal(config.gateway.url, 'https://gate.example.com/paynet');
    assert.equal(config.publicUrl, 'https://shop.example/pay');
    assert.deepEqual(config.allowedOrigins, ['https://shop.example']);
    assert.equal(config.logLevel, 'info');
    assert.equal(config.trustProxy, false);
    assert.equal(config.webhook, undefined);
    assert.equal(config.eventRetentionDays, 30);
    assert.equal(
      resolveOptions({ ...VALID, eventRetentionDays: 90 }).config.eventRetentionDays,
      90,
    );
    assert.deepEqual(database, { url: 'postgres://db.example/shop', schema: undefined });
  });

  it('names the missing or malformed field by its path', () => {
    const { jwtSecret: _j, ...noJwt } = VALID;
    rejects(noJwt, 'jwtSecret', 'is required');
    rejects({ ...VALID, jwtSecret: 'short' }, 'jwtSecret', 'must be at least 32 characters');
    rejects(
      { ...VALID, merchantApiKey: 'short' },
      'merchantApiKey',
      'must be at least 16 characters',
    );
    rejects(
      { ...VALID, gateway: { ...VALID.gateway, endpointId: 'abc' } },
      'gateway.endpointId',
      'must be the numeric endpoint id',
    );
    rejects({ ...VALID, gateway: { ...VALID.gateway, login: '' } }, 'gateway.login', 'is required');
    rejects(
      { ...VALID, gateway: { ...VALID.gateway, colour: 'red' } },
      'gateway.colour',
      'is not an option',
    );
    rejects({ ...VALID, publicUrl: 'ftp://shop.example' }, 'publicUrl', 'must be an http(s) URL');
    // PUBLIC_URL's rule: an origin a page can have, plus at most the mount path.
    rejects(
      { ...VALID, publicUrl: 'https://shop.example/pay?tenant=1' },
      'publicUrl',
      "must be the backend's base URL as shoppers' browsers open it (scheme://host[:port][/path]), not with a query: the return pages reach the widget from its origin",
    );
    rejects(
      { ...VALID, allowedOrigins: ['https://shop.example/path'] },
      'allowedOrigins',
      '"https://shop.example/path" is not an exact origin (scheme://host[:port])',
    );
    rejects(
      { ...VALID, webhook: { url: 'https://hooks.example/in', secret: 'short' } },
      'webhook.secret',
      'must be at least 16 characters',
    );
    rejects(
      { ...VALID, database: {} },
      'database',
      'give exactly one of url (PostgreSQL), dataDir (PGlite) or memory: true',
    );
    rejects(
      { ...VALID, database: { url: 'mysql://db' } },
      'database.url',
      'must be a postgres:// URL',
    );
    rejects(
      { ...VALID, trustProxy: true },
      'trustProxy',
      'must be false, a hop count, or proxy addresses, subnets or names (loopback, linklocal, uniquelocal)',
    );
    for (const days of [0, 1.5, 3651, '30'])
      rejects(
        { ...VALID, eventRetentionDays: days },
        'eventRetentionDays',
        'must be a whole number of days from 1 to 3650',
      );
    rejects(
      { ...VALID, logLevel: 'loud' },
      'logLevel',
      'must be one of fatal, error, warn, info, debug, trace, silent',
    );
  });

  it('card data and callbacks travel over TLS: http: only for this machine', () => {
    rejects(
      { ...VALID, publicUrl: 'http://shop.example/pay' },
      'publicUrl',
      'must be an https: URL (http: only for localhost, 127.0.0.0/8 or [::1])',
    );
    rejects(
      { ...VALID, gateway: { ...VALID.gateway, url: 'http://gate.example.com/paynet' } },
      'gateway.url',
      'must be an https: URL (http: only for localhost, 127.0.0.0/8 or [::1])',
    );
    rejects(
      { ...VALID, webhook: { url: 'http://shop.example/hooks', secret: 'w'.repeat(32) } },
      'webhook.url',
      'must be an https: URL (http: only for localhost, 127.0.0.0/8 or [::1])',
    );
    assert.equal(
      resolveOptions({ ...VALID, publicUrl: 'http://127.0.0.1:3000/pay' }).config.publicUrl,
      'http://127.0.0.1:3000/pay',
    );
  });

  it('a private key file that does not exist is named', () => {
    rejects(
      { ...VALID, gateway: { ...VALID.gateway, privateKeyFile: '/nowhere/key.pem' } },
      'gateway.privateKeyFile',
      'no file at /nowhere/key.pem',
    );
  });

  it('the factory itself throws, before anything is opened', () => {
    assert.throws(
      () => createPayCheckout({ ...VALID, jwtSecret: 'short' }),
      (error: unknown) => error instanceof ConfigError && error.variable === 'jwtSecret',
    );
  });
});
