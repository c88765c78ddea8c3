/**
 * Time, injectable. The sandbox never calls `Date.now()` or `setTimeout` directly: a system clock
 * in production, a manual clock in tests that moves only when told to (`advance`), so delayed
 * outcomes, 10-minute challenge expiry and monthly recurring charges are deterministic.
 */

export type TimerFn = () => void | Promise<void>;

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `fn` after `delayMs`; returns a cancel function. */
  setTimer(delayMs: number, fn: TimerFn): () => void;
}

/** The longest delay `setTimeout` takes; a longer one overflows and fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** What the system clock reads and arms; injectable so its tests are exact. */
export interface TimerHost {
  now(): number;
  setTimeout(fn: () => void, ms: number): { unref?(): unknown };
  clearTimeout(handle: unknown): void;
}

const NODE_TIMERS: TimerHost = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function systemClock(host: TimerHost = NODE_TIMERS): Clock {
  return {
    now: () => host.now(),
    setTimer(delayMs, fn) {
      // A monthly recurring charge is further away than a timer can wait (about 24.8 days):
      // wait in steps, re-arming until the due time.
      const due = host.now() + Math.max(0, delayMs);
      let handle: ReturnType<TimerHost['setTimeout']>;
      const arm = () => {
        const remaining = due - host.now();
        handle = host.setTimeout(
          () => (remaining > MAX_TIMER_MS ? arm() : void fn()),
          Math.min(Math.max(0, remaining), MAX_TIMER_MS),
        );
        // Pending jobs live in the database; a timer alone must not keep a process alive.
        handle.unref?.();
      };
      arm();
      return () => host.clearTimeout(handle);
    },
  };
}

export interface ManualClock extends Clock {
  /** Moves time forward, running (and awaiting) every timer that falls due, in order. */
  advance(ms: number): Promise<void>;
}

export function manualClock(start = Date.now()): ManualClock {
  let now = start;
  let seq = 0;
  const timers = new Map<number, { due: number; fn: TimerFn }>();
  return {
    now: () => now,
    setTimer(delayMs, fn) {
      const id = ++seq;
      timers.set(id, { due: now + Math.max(0, delayMs), fn });
      return () => timers.delete(id);
    },
    async advance(ms) {
      const target = now + ms;
      for (;;) {
        let next: [number, { due: number; fn: TimerFn }] | undefined;
        for (const entry of timers) {
          if (entry[1].due <= target && (!next || entry[1].due < next[1].due)) next = entry;
        }
        if (!next) break;
        timers.delete(next[0]);
        now = Math.max(now, next[1].due);
        await next[1].fn();
      }
      now = target;
    },
  };
}
