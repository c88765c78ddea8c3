/** The webhook signature (webhooks/webhook-signature.ts): signed with its timestamp; stale or altered refused. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  signWebhook,
  verifyWebhook,
} from '../../../../server/src/checkout/webhooks/webhook-signature.js';

describe('webhook signature', () => {
  it('signs the timestamp with the body and refuses stale or altered events', () => {
    const header = signWebhook('s3cret-s3cret-s3cret', '{"a":1}', 1_700_000_000);
    assert.match(header, /^t=1700000000,v1=[0-9a-f]{64}$/);
    const at = (nowSeconds: number) => ({ nowSeconds });
    assert.ok(verifyWebhook('{"a":1}', header, 's3cret-s3cret-s3cret', at(1_700_000_100)));
    assert.ok(!verifyWebhook('{"a":2}', header, 's3cret-s3cret-s3cret', at(1_700_000_100)));
    assert.ok(!verifyWebhook('{"a":1}', header, 's3cret-s3cret-s3cret', at(1_700_001_000)));
  });
});
