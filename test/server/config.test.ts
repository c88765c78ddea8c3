/** config.ts: every variable validated once, one clear line naming the bad one. */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import express from 'express';
import request from 'supertest';
import { clientIp } from '../../server/src/checkout/request-facts.js';
import { ConfigError, parseServerConfig } from '../../server/src/config.js';

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
});
