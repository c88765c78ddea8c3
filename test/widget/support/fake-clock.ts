/**
 * A fake clock for the element's injectable timers: time moves only when a test calls `tick`, so
 * the 10 s 3DS Method window and retry backoffs take no real time.
 */
import type { Clock } from '../../../widget/src/env.js';

interface Timer {
  id: number;
  at: number;
  fn: () => void;
}

/** Lets promise chains and queued tasks (fetch responses, events) run. */
export async function flush(rounds = 3): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setTimeout(r, 0));
}

export class FakeClock implements Clock {
  private time = Date.UTC(2026, 5, 15, 12, 0, 0);
  private timers: Timer[] = [];
  private seq = 0;

  now = (): number => this.time;

  setTimeout = (fn: () => void, ms: number): number => {
    const id = ++this.seq;
    this.timers.push({ id, at: this.time + Math.max(0, ms), fn });
    return id;
  };

  clearTimeout = (id: number): void => {
    this.timers = this.timers.filter((t) => t.id !== id);
  };

  /** Delays of the timers now pending, relative to now (e.g. [10000]). */
  pending(): number[] {
    return this.timers.map((t) => t.at - this.time).sort((a, b) => a - b);
  }

  /** Advances `ms`, firing due timers in order and letting the code they start run. */
  async tick(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      await flush();
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = due.at;
      due.fn();
    }
    this.time = end;
    await flush();
  }
}
