import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import {
  computeControl,
  controlString,
  SigningError,
  sha1Hex,
  verifyControl,
} from '../../../server/src/signing/index.js';

const KEY = 'B17F59B4-A7DC-41B4-8FF9-37D986B43D20';

const ownSha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex');

describe('control (SHA-1)', () => {
  test('sha1 of the docs sample string', () => {
    assert.equal(sha1Hex('test string to sha1'), 'bd4c24bb656d161a66d89a45f50bf52cb7134851');
  });

  test('sale known-answer vector (docs/gateway.md#known-answer-vectors)', () => {
    const values = {
      endpointId: '1111',
      client_orderid: '902B4FF5',
      amount: '10.42',
      currency: 'EUR',
      email: 'john.smith@gmail.com',
    };
    assert.equal(controlString('sale', values), '1111902B4FF51042john.smith@gmail.com');
    assert.equal(computeControl('sale', values, KEY), 'c6bdd88a78834ef4b863b088827a459f039e8257');
    assert.equal(
      computeControl('preauth', values, KEY),
      'c6bdd88a78834ef4b863b088827a459f039e8257',
    );
  });

  test('amount enters in minor units: 0.99 is 99', () => {
    const s = controlString('sale-form', {
      endpointId: '7',
      client_orderid: 'a',
      amount: '0.99',
      currency: 'USD',
      email: 'e@x.io',
    });
    assert.equal(s, '7a99e@x.io');
  });

  describe('known answers: the control amount is in cents for every currency', () => {
    // Computed here from the spec's words alone (scheme A: SHA-1 of the inputs in order, then
    // the key; rule 3: the amount in cents, "10.00 becomes 1000"), with node:crypto's own SHA-1,
    // and pinned to hex values computed outside this project (Python hashlib).
    const sale = (amount: string, currency: string) => ({
      endpointId: '1111',
      client_orderid: '902B4FF5',
      amount,
      currency,
      email: 'john.smith@gmail.com',
    });
    const cases: [string, string, string, string][] = [
      ['10.00', 'EUR', '1000', '986678e94ee955a125e5f25c0d4b44b3f874e5e0'],
      ['500', 'JPY', '50000', 'f80611056aa6927ffae7a23c95372591d5625f32'],
      ['1.500', 'KWD', '150', 'ffb77953e720088e9ae55f99f7efe8a928bbc72e'],
    ];
    for (const [amount, currency, cents, hex] of cases) {
      test(`sale ${currency} ${amount}: the control signs ${cents}`, () => {
        const text = `1111902B4FF5${cents}john.smith@gmail.com`;
        assert.equal(controlString('sale', sale(amount, currency)), text);
        assert.equal(ownSha1(`${text}${KEY}`), hex);
        assert.equal(computeControl('sale', sale(amount, currency), KEY), hex);
        assert.equal(computeControl('sale-form', sale(amount, currency), KEY), hex);
      });
    }

    test('capture JPY 500 and rebill KWD 1.500 carry 50000 and 150', () => {
      const capture = {
        login: 'LOGIN',
        client_orderid: 'CID',
        orderid: 'OID',
        amount: '500',
        currency: 'JPY',
      };
      assert.equal(controlString('capture', capture), 'LOGINCIDOID50000JPY');
      assert.equal(
        computeControl('capture', capture, KEY),
        '6af4ffb1a17d099739911f2c806b10d152da3521',
      );
      const rebill = {
        login: 'LOGIN',
        client_orderid: 'CID',
        cardrefid: 'REF',
        amount: '1.500',
        currency: 'KWD',
      };
      assert.equal(controlString('make-rebill', rebill), 'LOGINCIDREF150KWD');
      assert.equal(
        computeControl('make-rebill', rebill, KEY),
        '148007cb5c94d06f4a603571b9e05bcb5de3a935',
      );
    });

    test('KWD 1.234 (123.4 cents) has no control value: refused, naming the amount', () => {
      assert.throws(
        () => computeControl('sale', sale('1.234', 'KWD'), KEY),
        (e: unknown) =>
          e instanceof SigningError &&
          e.code === 'invalid-amount' &&
          e.message.includes('"1.234" is not a whole number of cents'),
      );
    });
  });

  test('each operation concatenates its inputs in the documented order', () => {
    const v = {
      login: 'LOGIN',
      client_orderid: 'CID',
      orderid: 'OID',
      amount: '1.50',
      currency: 'EUR',
      cardrefid: 'REF',
      endpointId: 'EP',
      email: 'M@X',
      status: 'approved',
    };
    const expected: Record<string, string> = {
      status: 'LOGINCIDOID',
      void: 'LOGINCIDOID',
      capture: 'LOGINCIDOID150EUR',
      return: 'LOGINCIDOID150EUR',
      'create-card-ref': 'LOGINCIDOID',
      'get-card-info': 'LOGINREF',
      'make-rebill': 'LOGINCIDREF150EUR',
      'account-verification': 'EPCIDM@X',
      'account-verification-form': 'EPCIDM@X',
      'upload-method-url-result': 'LOGINCIDOID',
      'upload-cres-result': 'LOGINCIDOID',
      'upload-pares-result': 'LOGINCIDOID',
      'final-notification': 'approvedOIDCID',
    };
    for (const [operation, text] of Object.entries(expected)) {
      assert.equal(controlString(operation as never, v), text, operation);
    }
  });

  test('status by client_orderid uses an empty orderid (scheme A rule 4)', () => {
    const values = { login: 'L', client_orderid: 'C' };
    assert.equal(controlString('status', values), 'LC');
    assert.equal(controlString('status', { ...values, orderid: '' }), 'LC');
    assert.equal(computeControl('status', values, 'K'), sha1Hex('LCK'));
    assert.equal(computeControl('status', values, 'K'), ownSha1('LCK'));
  });

  test('full capture and full return leave amount and currency out', () => {
    const values = { login: 'L', client_orderid: 'C', orderid: 'O' };
    assert.equal(controlString('capture', values), 'LCO');
    assert.equal(controlString('return', values), 'LCO');
  });

  test('a missing required input is refused, naming it', () => {
    assert.throws(
      () => controlString('sale', { endpointId: '1', client_orderid: 'c', currency: 'EUR' }),
      (e: unknown) =>
        e instanceof SigningError &&
        e.code === 'missing-control-input' &&
        e.message.includes('"amount"'),
    );
    assert.throws(
      () =>
        controlString('make-rebill', {
          login: 'l',
          client_orderid: 'c',
          cardrefid: 'r',
          amount: '1',
        }),
      (e: unknown) => e instanceof SigningError && e.code === 'missing-control-input',
    );
  });

  test('verifyControl accepts the right value in either hex case and refuses others', () => {
    const values = { status: 'approved', orderid: '1969105', client_orderid: '902B4FF56' };
    const good = computeControl('final-notification', values, KEY);
    assert.equal(good, sha1Hex(`approved1969105902B4FF56${KEY}`));
    assert.equal(verifyControl('final-notification', values, KEY, good), true);
    assert.equal(verifyControl('final-notification', values, KEY, good.toUpperCase()), true);
    assert.equal(verifyControl('final-notification', values, KEY, `${good.slice(0, -1)}0`), false);
    assert.equal(verifyControl('final-notification', values, 'other-key', good), false);
    assert.equal(verifyControl('final-notification', values, KEY, ''), false);
    assert.equal(verifyControl('final-notification', values, KEY, undefined), false);
    assert.equal(verifyControl('final-notification', { status: 'approved' }, KEY, good), false);
  });
});
