import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_TIMER_MS, systemClock } from '../../../server/src/sandbox/scheduler.js';

/** Fake timers on a frozen clock: they record each delay asked for and fire only when told to. */
function recordingTimers(now = 1_700_000_000_000) {
  const armed: { delay: number; fire: () => void }[] = [];
  return {
    armed,
    advance(ms: number) {
      now += ms;
    },
    now: () => now,
    setTimeout(fire: () => void, delay: number) {
      armed.push({ delay, fire });
      return {};
    },
    clearTimeout() {},
  };
}

describe('systemClock', () => {
  test('a short delay is one timer that runs the job', () => {
    const timers = recordingTimers();
    let ran = 0;
    systemClock(timers).setTimer(250, () => {
      ran++;
    });
    assert.deepEqual(
      timers.armed.map((t) => t.delay),
      [250],
    );
    timers.armed[0]?.fire();
    assert.equal(ran, 1);
  });

  test('a month-long delay never asks setTimeout for more than it can wait', () => {
    const timers = recordingTimers();
    let ran = 0;
    const month = 31 * 24 * 3600 * 1000;
    systemClock(timers).setTimer(month, () => {
      ran++;
    });
    assert.equal(timers.armed.length, 1);
    assert.equal(timers.armed[0]?.delay, MAX_TIMER_MS);
    // The first step ends early (about 24.8 days): the timer re-arms for the rest, then runs.
    timers.advance(MAX_TIMER_MS);
    timers.armed[0]?.fire();
    assert.equal(ran, 0);
    assert.equal(timers.armed[1]?.delay, month - MAX_TIMER_MS);
    timers.advance(month - MAX_TIMER_MS);
    timers.armed[1]?.fire();
    assert.equal(ran, 1);
  });
});
