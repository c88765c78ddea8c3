/**
 * POST /widget/extend: a shopper warned of the session's end gives it more time (WCAG 2.2.1).
 * Bounded: EXTENSION_MS each, at most MAX_EXTENSIONS, never past LONGEST_LIFE_MS after creation,
 * never while a payment's outcome is pending, never for an expired session; a refusal changes
 * nothing. The answer's token lasts as long as the session now does.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import jwt from 'jsonwebtoken';
import {
  EXTENSION_MS,
  LONGEST_LIFE_MS,
  MAX_EXTENSIONS,
} from '../../../../../server/src/checkout/payments/session-extension.js';
import { type Backend, withSandboxAndBackend } from '../../../../support/loopback-stack.js';
import { createSession, Shopper, testCard } from '../../../../support/widget-api-client.js';

describe('POST /widget/extend', () => {
  let be: Backend;
  withSandboxAndBackend((started) => {
    ({ be } = started);
  });

  /** The session's row as stored: what a refusal must leave as it was. */
  const row = async (id: string) => {
    const { rows } = await be.store.db.query(
      'select expires_at, extensions, state, version from checkout_sessions where id = $1',
      [id],
    );
    const r = rows[0] as Record<string, unknown>;
    return {
      expiresAt: new Date(r.expires_at as string).toISOString(),
      extensions: Number(r.extensions),
      state: r.state,
      version: Number(r.version),
    };
  };

  it('the session read tells the time left and the extensions; an extension adds 15 minutes and answers a token that lasts as long', async () => {
    const session = await createSession(be.url, { expiresInMinutes: 5 });
    const shopper = new Shopper(be.url, session.token);
    const read = await shopper.call('GET', '/session');
    assert.equal(read.status, 200);
    assert.equal(read.body.extensionsLeft, MAX_EXTENSIONS);
    const left = read.body.expiresInMs as number;
    assert.ok(left > 4 * 60_000 && left <= 5 * 60_000, String(left));

    const res = await shopper.call('POST', '/extend', { expiresAt: read.body.expiresAt });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const extended = Date.parse(read.body.expiresAt) + EXTENSION_MS;
    assert.equal(res.body.expiresAt, new Date(extended).toISOString());
    assert.equal(res.body.extensionsLeft, MAX_EXTENSIONS - 1);
    assert.ok(res.body.expiresInMs > 19 * 60_000 && res.body.expiresInMs <= 20 * 60_000);
    assert.deepEqual(
      { expiresAt: (await row(session.id)).expiresAt, extensions: 1 },
      { expiresAt: res.body.expiresAt, extensions: (await row(session.id)).extensions },
    );
    // The new token: the same session, its expiry the session's new one.
    const claims = jwt.decode(res.body.token) as jwt.JwtPayload;
    assert.equal(claims.sub, session.id);
    assert.equal(claims.exp, Math.floor(extended / 1000));
    const again = await new Shopper(be.url, res.body.token).call('GET', '/session');
    assert.equal(again.status, 200);
    assert.equal(again.body.expiresAt, res.body.expiresAt);
    assert.equal(again.body.extensionsLeft, MAX_EXTENSIONS - 1);
  });

  it('a second click on the same warning extends once: the answer is the session as it stands', async () => {
    const session = await createSession(be.url, { expiresInMinutes: 5 });
    const shopper = new Shopper(be.url, session.token);
    const { expiresAt } = (await shopper.call('GET', '/session')).body;
    const [a, b] = await Promise.all([
      shopper.call('POST', '/extend', { expiresAt }),
      shopper.call('POST', '/extend', { expiresAt }),
    ]);
    assert.equal(a.status, 200);
    assert.equal(b.status, 200);
    assert.equal(a.body.expiresAt, b.body.expiresAt);
    assert.equal((await row(session.id)).extensions, 1);
  });

  it('400 naming the field for a body without an instant, and nothing changes', async () => {
    const session = await createSession(be.url);
    const shopper = new Shopper(be.url, session.token);
    const before = await row(session.id);
    for (const body of [
      {},
      { expiresAt: 'tomorrow' },
      { expiresAt: '2026-06-15' },
      { expiresAt: 5 },
    ]) {
      const res = await shopper.call('POST', '/extend', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error.code, 'validation');
      assert.equal(res.body.error.field, 'expiresAt', JSON.stringify(res.body));
    }
    const extra = await shopper.call('POST', '/extend', {
      expiresAt: before.expiresAt,
      minutes: 60,
    });
    assert.equal(extra.status, 400);
    assert.deepEqual(await row(session.id), before);
  });

  it('409 while a payment is under way, and nothing changes', async () => {
    const session = await createSession(be.url);
    const shopper = new Shopper(be.url, session.token);
    const { expiresAt } = (await shopper.call('GET', '/session')).body;
    // A challenge card: the payment waits on the shopper's bank.
    await shopper.pay(testCard('3ds2-challenge'));
    const before = await row(session.id);
    assert.equal(before.state, 'paying');
    assert.equal((await shopper.call('GET', '/session')).body.extensionsLeft, 0);
    const res = await shopper.call('POST', '/extend', { expiresAt });
    assert.equal(res.status, 409);
    assert.equal(res.body.error.code, 'conflict');
    assert.deepEqual(await row(session.id), before);
  });

  it('409 with the form back while the left attempt is still followed (its outcome pending), and nothing changes', async () => {
    const session = await createSession(be.url);
    const shopper = new Shopper(be.url, session.token);
    const { expiresAt } = (await shopper.call('GET', '/session')).body;
    // Until the bank's challenge shows, then the shopper leaves it: the session takes another card.
    const method = await shopper.until(await shopper.pay(testCard('3ds2-challenge')));
    assert.equal(method.action, 'method', JSON.stringify(method));
    const challenge = await shopper.until(await shopper.methodResult('N'));
    assert.equal(challenge.action, 'challenge', JSON.stringify(challenge));
    const left = await shopper.call('POST', '/cancel', { reason: 'shopper-left' });
    assert.equal(left.status, 200, JSON.stringify(left.body));
    const read = (await shopper.call('GET', '/session')).body;
    assert.equal(read.state, 'open');
    assert.equal(read.extensionsLeft, 0);
    const before = await row(session.id);
    const res = await shopper.call('POST', '/extend', { expiresAt });
    assert.equal(res.status, 409, JSON.stringify(res.body));
    assert.equal(res.body.error.code, 'conflict');
    assert.deepEqual(await row(session.id), before);
  });

  it(`409 after ${MAX_EXTENSIONS} extensions, and at the longest life; nothing changes`, async () => {
    const session = await createSession(be.url);
    const shopper = new Shopper(be.url, session.token);
    await be.store.db.query('update checkout_sessions set extensions = $2 where id = $1', [
      session.id,
      MAX_EXTENSIONS,
    ]);
    const read = (await shopper.call('GET', '/session')).body;
    assert.equal(read.extensionsLeft, 0);
    const before = await row(session.id);
    const spent = await shopper.call('POST', '/extend', { expiresAt: read.expiresAt });
    assert.equal(spent.status, 409);
    assert.equal(spent.body.error.code, 'conflict');
    assert.deepEqual(await row(session.id), before);

    // Created almost a day ago: one more extension would pass its longest life.
    const old = await createSession(be.url);
    await be.store.db.query(
      `update checkout_sessions set created_at = expires_at - make_interval(secs => $2) where id = $1`,
      [old.id, LONGEST_LIFE_MS / 1000],
    );
    const oldShopper = new Shopper(be.url, old.token);
    const oldRead = (await oldShopper.call('GET', '/session')).body;
    assert.equal(oldRead.extensionsLeft, 0);
    const oldBefore = await row(old.id);
    const longest = await oldShopper.call('POST', '/extend', { expiresAt: oldRead.expiresAt });
    assert.equal(longest.status, 409);
    assert.deepEqual(await row(old.id), oldBefore);
  });

  it('410 for a session past its expiry: it is not brought back', async () => {
    const session = await createSession(be.url);
    const shopper = new Shopper(be.url, session.token);
    await be.store.db.query(
      `update checkout_sessions set expires_at = now() - interval '1 second' where id = $1`,
      [session.id],
    );
    const before = await row(session.id);
    const res = await shopper.call('POST', '/extend', { expiresAt: before.expiresAt });
    assert.equal(res.status, 410);
    assert.equal(res.body.error.code, 'session-expired');
    assert.deepEqual(await row(session.id), before);
  });
});
