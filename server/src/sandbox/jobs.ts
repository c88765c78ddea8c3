/**
 * Delayed work (an order's next step, a callback attempt, a challenge's expiry, a recurring
 * charge), kept in `sandbox_jobs` so a restarted sandbox picks it up, and run on the injectable
 * clock. A job row is claimed atomically before it runs, so it runs once even with two instances.
 */
import type { Database } from '../store/engine/types.js';
import type { Clock } from './scheduler.js';
import type { TxContext } from './store.js';

export type JobPayload = Record<string, string | number | boolean>;
export type JobHandler = (payload: JobPayload) => Promise<void>;

export interface JobLogger {
  error(obj: unknown, msg: string): void;
}

export class JobRunner {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly timers = new Map<string, () => void>();
  private readonly inflight = new Set<Promise<void>>();
  private closed = false;

  private readonly db: Database;
  private readonly clock: Clock;
  private readonly log: JobLogger;

  constructor(db: Database, clock: Clock, log: JobLogger) {
    this.db = db;
    this.clock = clock;
    this.log = log;
  }

  on(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  /** Inserts the job in the caller's transaction; its timer is armed once that commits. */
  async enqueue(ctx: TxContext, kind: string, payload: JobPayload, delayMs: number) {
    const due = this.clock.now() + Math.max(0, Math.round(delayMs));
    const { rows } = await ctx.q.query<{ id: string }>(
      'insert into sandbox_jobs (kind, payload, due_at) values ($1, $2, $3) returning id::text as id',
      [kind, JSON.stringify(payload), due],
    );
    const id = rows[0]!.id;
    ctx.after(() => this.arm(id, due));
  }

  /** Re-arms every job left pending by a previous run of the sandbox. */
  async recover(): Promise<void> {
    const { rows } = await this.db.query<{ id: string; due_at: string | number }>(
      'select id::text as id, due_at from sandbox_jobs where not done order by due_at',
    );
    for (const row of rows) this.arm(row.id, Number(row.due_at));
  }

  /** Resolves when no job is running (tests use it to wait for callbacks to land). */
  async idle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const cancel of this.timers.values()) cancel();
    this.timers.clear();
    await this.idle();
  }

  private arm(id: string, due: number): void {
    if (this.closed) return;
    const cancel = this.clock.setTimer(due - this.clock.now(), () => {
      this.timers.delete(id);
      return this.track(this.run(id));
    });
    this.timers.set(id, cancel);
  }

  private track(promise: Promise<void>): Promise<void> {
    this.inflight.add(promise);
    return promise.finally(() => this.inflight.delete(promise));
  }

  private async run(id: string): Promise<void> {
    if (this.closed) return;
    try {
      const { rows } = await this.db.query<{ kind: string; payload: JobPayload }>(
        'update sandbox_jobs set done = true where id = $1 and not done returning kind, payload',
        [id],
      );
      const job = rows[0];
      if (!job) return;
      const handler = this.handlers.get(job.kind);
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      await handler(job.payload);
    } catch (error) {
      if (!this.closed) this.log.error({ err: error, job: id }, 'sandbox job failed');
    }
  }
}
