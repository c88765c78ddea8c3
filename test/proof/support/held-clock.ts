/**
 * The sandbox's clock for a proof whose subject is the order of two events (the bank approves a
 * left challenge late, after or before another attempt): the system clock, except that a timer of
 * `heldFromMs` or more waits until the test releases it. So "late" means after the step the test
 * names, however slow the machine, not "after 1.2 s", which a busy machine can overrun before the
 * other attempt is done.
 */
import { type Clock, systemClock } from '../../../server/src/sandbox/index.js';
import { waitFor } from './proof.js';

export interface HeldClock extends Clock {
  /**
   * Runs the `count` oldest held timers asked for with at most `upToMs` (waiting for them to be
   * armed: a job is armed once its transaction commits).
   */
  release(upToMs: number, count?: number): Promise<void>;
}

export function heldClock(heldFromMs: number): HeldClock {
  const system = systemClock();
  const held: { delayMs: number; fn: () => void | Promise<void> }[] = [];
  return {
    now: () => system.now(),
    setTimer(delayMs, fn) {
      if (delayMs < heldFromMs) return system.setTimer(delayMs, fn);
      const timer = { delayMs, fn };
      held.push(timer);
      return () => {
        const at = held.indexOf(timer);
        if (at >= 0) held.splice(at, 1);
      };
    },
    async release(upToMs, count = 1) {
      const due = () => held.filter((t) => t.delayMs <= upToMs);
      await waitFor(`${count} held timer(s) of at most ${upToMs} ms`, async () =>
        due().length >= count ? true : undefined,
      );
      for (const timer of due().slice(0, count)) {
        held.splice(held.indexOf(timer), 1);
        void timer.fn();
      }
    },
  };
}
