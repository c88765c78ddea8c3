import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import request from 'supertest';
import {
  createSandboxApp,
  describeSandbox,
  SandboxConfigError,
  sandboxOptionsFromEnv,
} from '../../../server/src/sandbox/index.js';
import { devMerchant } from '../../../server/src/sandbox/merchants.js';
import { computeControl, createOAuthSigner } from '../../../server/src/signing/index.js';
import { copyNewDataFolder } from '../../support/pglite-cache.js';
import { saleRequest } from './helpers.js';

describe('sandboxOptionsFromEnv', () => {
  test('maps the environment to typed options', () => {
    assert.deepEqual(
      sandboxOptionsFromEnv({
        ENDPOINT_ID: '42',
        MERCHANT_LOGIN: 'shop',
        MERCHANT_CONTROL_KEY: 'secret',
        MERCHANT_PUBLIC_KEY_FILE: '/keys/pub.pem',
        DATABASE_URL: 'postgres://db/x',
        DATA_DIR: './data',
        SANDBOX_DEV_MODE: 'true',
      }),
      {
        merchants: [
          { endpointId: '42', login: 'shop', controlKey: 'secret', publicKeyFile: '/keys/pub.pem' },
        ],
        databaseUrl: 'postgres://db/x',
        dataDir: './data',
        devMode: true,
      },
    );
    assert.deepEqual(sandboxOptionsFromEnv({}), {});
  });
  test('refuses partial merchants and malformed values, naming the variable', () => {
    assert.throws(() => sandboxOptionsFromEnv({ ENDPOINT_ID: '1' }), /MERCHANT_LOGIN is missing/);
    assert.throws(
      () =>
        sandboxOptionsFromEnv({ ENDPOINT_ID: 'x', MERCHANT_LOGIN: 'a', MERCHANT_CONTROL_KEY: 'b' }),
      SandboxConfigError,
    );
    assert.throws(() => sandboxOptionsFromEnv({ DATABASE_URL: 'mysql://x' }), /DATABASE_URL/);
    assert.throws(() => sandboxOptionsFromEnv({ SANDBOX_DEV_MODE: 'maybe' }), /SANDBOX_DEV_MODE/);
  });
});

describe('configured merchants', () => {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const merchants = [
    { endpointId: '10', login: 'a', controlKey: 'ka', publicKeyPem: publicKey },
    { endpointId: '20', login: 'b', controlKey: 'kb' },
  ];

  test("another merchant's card reference is refused; reset is dev-only", async () => {
    const sb = await createSandboxApp({ merchants, processingDelayMs: 5 });
    try {
      const sale = saleRequest('4000000000000002');
      const ack = await request(sb.app)
        .post('/paynet/api/v2/sale/10')
        .set('Accept', 'application/vnd.pay+json')
        .type('form')
        .send({ ...sale, control: computeControl('sale', { endpointId: '10', ...sale }, 'ka') });
      assert.equal(ack.status, 200);
      const orderid = JSON.parse(ack.text)['paynet-order-id'] as string;
      await new Promise((r) => setTimeout(r, 50));
      await sb.idle();
      const refFields = { login: 'a', client_orderid: sale.client_orderid, orderid };
      const ref = await request(sb.app)
        .post('/paynet/api/v2/create-card-ref/10')
        .set('Accept', 'application/vnd.pay+json')
        .type('form')
        .send({ ...refFields, control: computeControl('create-card-ref', refFields, 'ka') });
      assert.equal(ref.status, 200, ref.text);
      const cardrefid = JSON.parse(ref.text)['card-ref-id'] as string;
      const info = await request(sb.app)
        .post('/paynet/api/v2/get-card-info/20')
        .set('Accept', 'application/vnd.pay+json')
        .type('form')
        .send({
          login: 'b',
          cardrefid,
          control: computeControl('get-card-info', { login: 'b', cardrefid }, 'kb'),
        });
      assert.equal(info.status, 400);
      assert.match(JSON.parse(info.text)['error-message'], /^cardrefid:/);
      assert.equal((await request(sb.app).post('/sandbox/reset')).status, 404);
    } finally {
      await sb.close();
    }
  });

  test('an RSA call for a merchant with no public key is refused as such', async () => {
    const sb = await createSandboxApp({ merchants, processingDelayMs: 5 });
    try {
      // Signed by merchant b with some key: b registered none, so no signature can be checked.
      const signer = createOAuthSigner({
        method: 'RSA-SHA256',
        consumerKey: 'b',
        privateKeyPem: privateKey,
      });
      const params: [string, string][] = [
        ['client-order-id', 'no-key-1'],
        ['amount', '12.00'],
        ['currency', 'EUR'],
        ['account_number', 'GB29NWBK60161331926819'],
        ['bank_name', 'Example Bank'],
      ];
      const agent = request(sb.app);
      const signed = signer.sign({ url: 'http://127.0.0.1/paynet/api/v4/payout/20', params });
      const response = await agent
        .post('/paynet/api/v4/payout/20')
        .set('Accept', 'application/vnd.pay+json')
        .set('Authorization', signed.authorization)
        .type('form')
        .send(new URLSearchParams(signed.body.map(([k, v]) => [k, v])).toString());
      assert.equal(response.status, 403);
      assert.equal(
        JSON.parse(response.text)['error-message'],
        'OAuth: no RSA public key is registered for this endpoint',
      );
    } finally {
      await sb.close();
    }
  });

  test('without a data folder, every start of the process shares one generated key pair', async () => {
    const [first, second] = await Promise.all([devMerchant(undefined), devMerchant(undefined)]);
    const third = await devMerchant(undefined);
    assert.equal(second.credentials.privateKeyFile, first.credentials.privateKeyFile);
    assert.equal(third.credentials.privateKeyFile, first.credentials.privateKeyFile);
    assert.equal(third.credentials.publicKeyPem, first.credentials.publicKeyPem);
  });

  test('a restarted sandbox remembers its transactions (data folder)', async () => {
    const root = await mkdtemp(join(tmpdir(), 'sandbox-restart-'));
    const dataDir = join(root, 'data');
    await copyNewDataFolder(dataDir);
    const first = await createSandboxApp({ dataDir, processingDelayMs: 5 });
    const creds = first.devCredentials!;
    const sale = saleRequest('4000000000000002');
    const ack = await request(first.app)
      .post(`/paynet/api/v2/sale/${creds.endpointId}`)
      .set('Accept', 'application/vnd.pay+json')
      .type('form')
      .send({
        ...sale,
        control: computeControl(
          'sale',
          { endpointId: creds.endpointId, ...sale },
          creds.controlKey,
        ),
      });
    const orderid = JSON.parse(ack.text)['paynet-order-id'] as string;
    await first.close();
    // The pending step survives the restart and completes.
    const second = await createSandboxApp({ dataDir, processingDelayMs: 5 });
    try {
      assert.equal(second.devCredentials?.privateKeyFile, creds.privateKeyFile);
      await new Promise((r) => setTimeout(r, 50));
      await second.idle();
      const fields = { login: creds.login, client_orderid: sale.client_orderid, orderid };
      const status = await request(second.app)
        .post(`/paynet/api/v2/status/${creds.endpointId}`)
        .set('Accept', 'application/vnd.pay+json')
        .type('form')
        .send({ ...fields, control: computeControl('status', fields, creds.controlKey) });
      assert.equal(JSON.parse(status.text).status, 'approved');
      const text = describeSandbox({
        origin: 'http://127.0.0.1:4000',
        merchants: second.merchants,
        devCredentials: second.devCredentials,
        devMode: true,
      });
      assert.match(text, /MERCHANT_PRIVATE_KEY_FILE=/);
      assert.match(text, /3ds2-challenge\s+4000000000000044\s+123\s+1234/);
    } finally {
      await second.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});
