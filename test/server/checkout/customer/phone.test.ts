/** A phone as the backend keeps it (E.164) and as the gateway's 15-character `phone` takes it. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { e164, gatewayPhone } from '../../../../server/src/checkout/customer/phone.js';

describe('customer/phone', () => {
  it('reads a number typed without its country code in the region given', () => {
    assert.equal(e164('0151 12345678', 'DE'), '+4915112345678');
    assert.equal(e164('020 7946 0958', 'GB'), '+442079460958');
    assert.equal(e164('(415) 555-2671', 'US'), '+14155552671');
  });

  it('takes a number with its country code whatever the region', () => {
    assert.equal(e164('+44 20 7946 0958', 'DE'), '+442079460958');
    assert.equal(e164('+1-202-555-0143'), '+12025550143');
    assert.equal(e164('+441234567890'), '+441234567890');
  });

  it('refuses what is no valid number: too short, a national number without a region, letters', () => {
    assert.equal(e164('12345', 'DE'), null);
    assert.equal(e164('0151 12345678'), null);
    assert.equal(e164('+4412345678'), null);
    assert.equal(e164('call me', 'GB'), null);
    assert.equal(e164('', 'GB'), null);
  });

  it("sends E.164 with its '+' within 15 characters, and the 15 digits of a longer one", () => {
    assert.equal(gatewayPhone('+4915112345678'), '+4915112345678');
    assert.equal(gatewayPhone('+12345678901234'), '+12345678901234');
    assert.equal(gatewayPhone('+123456789012345'), '123456789012345');
  });
});
