/**
 * `/readyz` is unauthenticated and asks the gateway whether it answers. Called in a loop, it
 * used to send one request to the gateway per call: an amplifier pointed at the merchant's own
 * gateway. The attack: a burst of concurrent calls and then a sequential run; the gateway must
 * see one probe for all of them, and a fresh one only once the cached answer is READY_CACHE_MS
 * old.
 */
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { READY_CACHE_MS } from '../../server/src/checkout/http/health.js';
import {
  type Backend,
  closeServer,
  listen,
  type Sandbox,
  startBackend,
  startSandbox,
  TIME_SCALE,
} from './support/proof.js';

/**
 * The clock the readiness cache reads (performance.now), in this process: at a quiet machine's
 * pace (a busy machine's 100 calls must not outlast READY_CACHE_MS only because it is busy), and
 * moved on by the test where it would otherwise sleep READY_CACHE_MS.
 */
const realNow = performance.now.bind(performance);
const started = realNow();
let movedOn = 0;
performance.now = () => started + (realNow() - started) / TIME_SCALE + movedOn;

describe('/readyz does not relay a flood to the gateway', () => {
  let sb: Sandbox;
  let be: Backend;
  let gateway: { server: Server; url: string };
  const probes: string[] = [];

  before(async () => {
    // The gateway as /readyz sees it: anything that answers HTTP; every request is counted.
    gateway = await listen((req, res) => {
      probes.push(`${req.method} ${req.url}`);
      res.writeHead(200).end();
    });
    sb = await startSandbox();
    const dev = sb.sandbox.devCredentials;
    assert.ok(dev);
    be = await startBackend(sb, {
      config: {
        gateway: {
          url: `${gateway.url}/paynet`,
          endpointId: dev.endpointId,
          login: dev.login,
          controlKey: dev.controlKey,
        },
      },
    });
  });
  after(async () => {
    await be.close();
    await sb.close();
    await closeServer(gateway.server);
    performance.now = realNow;
  });

  const ready = async () => {
    const res = await fetch(`${be.url}/readyz`);
    return { status: res.status, body: (await res.json()) as { checks: unknown } };
  };
  const READY = {
    status: 200,
    body: {
      status: 'ready',
      gateway: 'live',
      checks: { store: 'ok', gateway: 'ok', shuttingDown: false },
    },
  };

  it('50 concurrent and 50 sequential calls: one gateway probe, every answer ready', async () => {
    const burst = await Promise.all(Array.from({ length: 50 }, ready));
    for (const answer of burst) assert.deepEqual(answer, READY);
    for (let i = 0; i < 50; i++) assert.deepEqual(await ready(), READY);
    assert.deepEqual(probes, ['HEAD /paynet']);
  });

  it('after READY_CACHE_MS the next call probes again (a gateway outage shows within it)', async () => {
    movedOn += READY_CACHE_MS + 50;
    assert.deepEqual(await ready(), READY);
    assert.deepEqual(await ready(), READY);
    assert.deepEqual(probes, ['HEAD /paynet', 'HEAD /paynet']);
  });
});
