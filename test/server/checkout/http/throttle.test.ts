/**
 * The request limits' counting (throttle.ts), on an app of their own: a fixed window per key,
 * the 429 answer with Retry-After, skipped requests, and the window's end. Time is node:test's
 * mock clock, so nothing here waits.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, mock, test } from 'node:test';
import express from 'express';
import request from 'supertest';
import { windowLimit } from '../../../../server/src/checkout/http/throttle.js';

function app() {
  const a = express();
  a.use(
    windowLimit({
      limit: 2,
      windowMs: 60_000,
      key: (req) => String(req.get('x-who')),
      skip: (req) => req.get('x-skip') === '1',
    }),
  );
  a.get('/', (_req, res) => {
    res.json({ ok: true });
  });
  return a;
}

describe('windowLimit', () => {
  beforeEach(() => {
    mock.timers.enable({ apis: ['Date'], now: 1_000_000 });
  });
  afterEach(() => {
    mock.timers.reset();
  });

  test('the request after the limit is a 429 with Retry-After; other keys go on', async () => {
    const a = app();
    assert.equal((await request(a).get('/').set('x-who', 'a')).status, 200);
    mock.timers.tick(20_000);
    assert.equal((await request(a).get('/').set('x-who', 'a')).status, 200);
    const refused = await request(a).get('/').set('x-who', 'a');
    assert.equal(refused.status, 429);
    // The window began at the first request, 20 s ago.
    assert.equal(refused.headers['retry-after'], '40');
    assert.equal(refused.body.error.code, 'rate-limited');
    assert.equal((await request(a).get('/').set('x-who', 'b')).status, 200);
  });

  test('skipped requests are not counted', async () => {
    const a = app();
    for (let i = 0; i < 5; i++) {
      assert.equal((await request(a).get('/').set('x-who', 'a').set('x-skip', '1')).status, 200);
    }
    assert.equal((await request(a).get('/').set('x-who', 'a')).status, 200);
    assert.equal((await request(a).get('/').set('x-who', 'a')).status, 200);
    assert.equal((await request(a).get('/').set('x-who', 'a')).status, 429);
  });

  test('a new window starts once the last one ended', async () => {
    const a = app();
    for (const expected of [200, 200, 429]) {
      assert.equal((await request(a).get('/').set('x-who', 'a')).status, expected);
    }
    mock.timers.tick(59_999);
    assert.equal((await request(a).get('/').set('x-who', 'a')).status, 429);
    mock.timers.tick(1);
    assert.equal((await request(a).get('/').set('x-who', 'a')).status, 200);
    assert.equal((await request(a).get('/').set('x-who', 'a')).status, 200);
    assert.equal((await request(a).get('/').set('x-who', 'a')).status, 429);
  });
});
