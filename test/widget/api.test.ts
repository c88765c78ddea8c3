import { expect } from '@open-wc/testing';
import { ApiError, createApi, RETRY_DELAYS_MS } from '../../widget/src/api.js';
import { FakeBackend, finalApproved, sessionView } from './support/fake-backend.js';
import { FakeClock } from './support/fake-clock.js';

const base = `${location.origin}/fake-backend`;
const make = (
  backend: FakeBackend,
  clock = new FakeClock(),
  signal = new AbortController().signal,
) => createApi({ backend: `${base}/`, session: 'tok', fetch: backend.fetch, clock, signal });

async function caught(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    return e as ApiError;
  }
  throw new Error('expected a rejection');
}

describe('api client', () => {
  it('calls each route with the token, JSON and the right method', async () => {
    const b = new FakeBackend()
      .on('GET /widget/session', { json: sessionView() })
      .on('POST /widget/cancel', { json: finalApproved() })
      .on('POST /widget/hosted', { json: finalApproved() })
      .on('GET /widget/next', { json: finalApproved() });
    const api = make(b);
    expect(await api.session()).to.deep.equal(sessionView());
    await api.cancel({ reason: 'shopper-left' });
    await api.hosted();
    await api.next(5);
    expect(b.calls.map((c) => [c.method, c.path, c.body])).to.deep.equal([
      ['GET', '/widget/session', undefined],
      ['POST', '/widget/cancel', { reason: 'shopper-left' }],
      ['POST', '/widget/hosted', undefined],
      ['GET', '/widget/next?wait=5', undefined],
    ]);
    // No Accept of ours (fetch sends */*): the browser's page Accept header reaches the gateway
    // from the launcher page's load, never from these calls.
    expect(b.calls[1]!.headers).to.deep.equal({
      authorization: 'Bearer tok',
      'content-type': 'application/json',
    });
    expect(b.calls[0]!.headers['content-type']).to.equal(undefined);
  });

  const errors: [number, unknown, string, string | undefined][] = [
    [401, { error: { code: 'unauthorized', message: 'expired' } }, 'session-expired', undefined],
    [
      400,
      { error: { code: 'validation', message: 'bad cvc', field: 'card.cvc' } },
      'validation',
      'card.cvc',
    ],
    [409, { error: { code: 'conflict', message: 'already paid' } }, 'conflict', undefined],
    [429, { error: { code: 'rate-limited', message: 'slow down' } }, 'rate-limited', undefined],
    [502, { error: { code: 'gateway', message: 'gateway down' } }, 'gateway', undefined],
    [500, 'not json', 'internal', undefined],
  ];
  for (const [status, body, code, field] of errors) {
    it(`HTTP ${status} -> ApiError ${code}`, async () => {
      const b = new FakeBackend().on('POST /widget/pay', { status, json: body });
      const e = await caught(make(b).pay({} as never));
      expect(e).to.be.instanceOf(ApiError);
      expect([e.code, e.status, e.field]).to.deep.equal([code, status, field]);
    });
  }

  it('retries idempotent calls with backoff, never the payment', async () => {
    const clock = new FakeClock();
    const b = new FakeBackend()
      .on(
        'GET /widget/session',
        { networkError: true },
        { status: 502, json: {} },
        { json: sessionView() },
      )
      .on('POST /widget/pay', { networkError: true });
    const api = make(b, clock);
    const p = api.session();
    await clock.tick(0);
    expect(clock.pending()).to.deep.equal([RETRY_DELAYS_MS[0]]);
    await clock.tick(RETRY_DELAYS_MS[0]);
    expect(clock.pending()).to.deep.equal([RETRY_DELAYS_MS[1]]);
    await clock.tick(RETRY_DELAYS_MS[1]);
    expect(await p).to.deep.equal(sessionView());
    expect(b.requests('GET /widget/session')).to.have.length(3);
    const e = await caught(api.pay({} as never));
    expect(e.code).to.equal('network');
    expect(b.requests('POST /widget/pay')).to.have.length(1);
  });

  it('does not retry a 4xx', async () => {
    const b = new FakeBackend().on('GET /widget/next', {
      status: 409,
      json: { error: { code: 'conflict', message: 'x' } },
    });
    const e = await caught(make(b).next());
    expect(e.code).to.equal('conflict');
    expect(b.requests('GET /widget/next')).to.have.length(1);
  });

  it('stops retrying when aborted', async () => {
    const clock = new FakeClock();
    const ctl = new AbortController();
    const b = new FakeBackend().on('GET /widget/next', { networkError: true });
    const p = make(b, clock, ctl.signal).next();
    await clock.tick(0);
    ctl.abort(new DOMException('gone', 'AbortError'));
    const e = await caught(p);
    expect((e as unknown as DOMException).name).to.equal('AbortError');
    expect(clock.pending()).to.deep.equal([]);
  });
});
