/**
 * Secrets never leave the client: every error type, triggered by a card request whose card
 * number and CVV the gateway even echoes back, is free of the card number, CVV, control key,
 * control value and private key; exchange records are sanitised the same way.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { inspect } from 'node:util';
import {
  createGatewayClient,
  type GatewayClientConfig,
  GatewayError,
  type GatewayExchange,
  redactText,
  sanitizeFields,
} from '../../../server/src/gateway/index.js';
import {
  CARD,
  CREDENTIALS,
  json,
  type Reply,
  SALE,
  sha1,
  startGateway,
  type TestGateway,
} from './helpers.js';

const PEM = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
const CONTROL = sha1(
  `${CREDENTIALS.endpointId}E11000john.smith@gmail.com${CREDENTIALS.controlKey}`,
);
const ECHO = `card ${CARD.credit_card_number} cvv ${CARD.cvv2} control ${CONTROL} key ${CREDENTIALS.controlKey}`;

/** `control`: whether this request had a control value (the OAuth ones have none to leak). */
function assertClean(label: string, text: string, control = true): void {
  assert.ok(!text.includes(CARD.credit_card_number), `${label}: card number`);
  assert.ok(!text.includes('4444 4444 4444 4448'), `${label}: spaced card number`);
  assert.ok(!/(^|[^0-9])987([^0-9]|$)/.test(text), `${label}: CVV`);
  assert.ok(!text.includes(CREDENTIALS.controlKey), `${label}: control key`);
  if (control) assert.ok(!text.includes(CONTROL), `${label}: control value`);
  const keyBody = PEM.split('\n')[5] ?? '';
  assert.ok(keyBody.length > 20 && !text.includes(keyBody), `${label}: private key`);
}

describe('no secrets in errors or exchange records', () => {
  let gateway: TestGateway;
  before(async () => {
    gateway = await startGateway();
  });
  after(() => gateway.close());

  const config = (extra: Partial<GatewayClientConfig> = {}): GatewayClientConfig => ({
    gatewayUrl: gateway.url,
    ...CREDENTIALS,
    privateKeyPem: PEM,
    requestId: () => 'req-s',
    retryDelayMs: 1,
    timeoutMs: 2000,
    ...extra,
  });

  const echoed = (status: number, type: string): Reply =>
    json(
      {
        type,
        'error-message': ECHO,
        'error-code': '5',
        'serial-number': 'sn-s',
        raw_card: '4444 4444 4444 4448',
      },
      status,
    );

  const cases: [string, Reply | 'refused', Partial<GatewayClientConfig>][] = [
    ['gateway-validation', echoed(400, 'validation-error'), {}],
    ['gateway-signature', echoed(403, 'error'), {}],
    ['gateway-server', echoed(500, 'error'), {}],
    ['gateway-unexpected-body', { contentType: 'text/html', body: `<p>${ECHO}</p>` }, {}],
    ['gateway-timeout', 'hang', { timeoutMs: 150 }],
    ['gateway-transport', 'refused', {}],
  ];

  for (const [code, reply, extra] of cases) {
    test(`${code} from a sale with card data`, async () => {
      let gatewayUrl = gateway.url;
      if (reply === 'refused') {
        const closed = await startGateway();
        gatewayUrl = closed.url;
        await closed.close();
      } else {
        gateway.reply = () => reply;
      }
      const exchanges: GatewayExchange[] = [];
      const client = createGatewayClient(
        config({ ...extra, gatewayUrl, onExchange: (e) => void exchanges.push(e) }),
      );
      const error = await client.sale(SALE).then(
        () => assert.fail('expected a rejection'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof GatewayError);
      assert.equal(error.code, code);
      assert.equal(error.requestId, 'req-s');
      assertClean('message', error.message);
      assertClean('JSON', JSON.stringify(error));
      assertClean('inspect', inspect(error, { depth: 10 }));
      assertClean('stack', String(error.stack));
      assert.equal(exchanges.length, 1);
      assertClean('exchange', JSON.stringify(exchanges[0]));
      if (code === 'gateway-validation') {
        assert.equal(
          error.errorMessage,
          'card [redacted] cvv [redacted] control [redacted] key [redacted]',
        );
        assert.equal(JSON.parse(JSON.stringify(error)).errorCode, '5');
      }
    });
  }

  test('an OAuth card request: no signature or card data in the error', async () => {
    gateway.reply = () => echoed(400, 'validation-error');
    const client = createGatewayClient(config());
    const error = await client
      .transfer({ ...SALE, 'destination-card-no': '4000000000000002' })
      .catch((e: unknown) => e);
    assert.ok(error instanceof GatewayError);
    const text = `${error.message} ${JSON.stringify(error)} ${inspect(error)}`;
    assertClean('transfer', text, false);
    assert.ok(!/oauth_signature/.test(text));
    assert.ok(!text.includes('4000000000000002'));
  });

  test('onExchange gets sanitised fields, the result, status, timing and request id', async () => {
    gateway.reply = () =>
      json({ type: 'async-response', 'paynet-order-id': 77, 'serial-number': 'sn-x' });
    const exchanges: GatewayExchange[] = [];
    const client = createGatewayClient(config({ onExchange: (e) => void exchanges.push(e) }));
    const result = await client.sale(SALE);
    assert.equal(result.orderId, '77');
    assert.equal(exchanges.length, 1);
    const [exchange] = exchanges;
    assert.equal(exchange?.operation, 'sale');
    assert.equal(exchange?.method, 'sale');
    assert.equal(exchange?.requestId, 'req-s');
    assert.equal(exchange?.attempt, 1);
    assert.equal(exchange?.httpStatus, 200);
    assert.equal(exchange?.response?.orderId, '77');
    assert.equal(typeof exchange?.durationMs, 'number');
    // The holder's name is card data too (the list shared with the store and the logger).
    const { credit_card_number, cvv2, expire_month, expire_year, card_printed_name, ...kept } =
      SALE;
    assert.deepEqual(exchange?.requestFields, kept);
    assertClean('exchange', JSON.stringify(exchange));
  });

  test('a throwing onExchange does not fail the call', async () => {
    gateway.reply = () => json({ type: 'async-response' });
    const client = createGatewayClient(
      config({
        onExchange: () => {
          throw new Error('history down');
        },
      }),
    );
    const result = await client.sale(SALE);
    assert.equal(result.type, 'async-response');
  });
});

describe('sanitizeFields and redactText: PANs glued to other characters', () => {
  test('a card number after a letter or underscore is still masked; a phone keeps its last four', () => {
    assert.deepEqual(sanitizeFields({ phone: '+441234567890', zip: 'N1 9GU' }), {
      phone: '+44******7890',
      zip: 'N1 9GU',
    });
    assert.deepEqual(
      sanitizeFields({ order_desc: 'card_4000000000000002 and x4000000000000002' }),
      { order_desc: 'card_400000******0002 and x400000******0002' },
    );
    assert.equal(redactText('ref4000000000000002: refused', []), 'ref[redacted]: refused');
    // A longer digit run is not a card number, and is not cut into one.
    assert.equal(redactText('id 41111111111111110000000', []), 'id 41111111111111110000000');
  });

  test('a UUID holding a run of dashed digits is an id, not a card number', () => {
    const id = 'd13479af-5533-4311-9065-9c77950a7b5e';
    assert.deepEqual(sanitizeFields({ client_orderid: id }), { client_orderid: id });
    assert.equal(redactText(`order ${id} refused`, []), `order ${id} refused`);
  });

  test('the card holder name and other shared sensitive names are dropped', () => {
    assert.deepEqual(
      sanitizeFields({ card_printed_name: 'Zoë', ssn: '123', jwt_secret: 's', amount: '1.00' }),
      { amount: '1.00' },
    );
  });
});
