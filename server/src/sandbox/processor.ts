/**
 * The asynchronous side of a transaction: every request answers at once, and the transaction
 * moves on in a job after the processing delay (through status and callbacks), like the real
 * gateway. One job kind, `advance`, carries the phase it was scheduled for, so a job that finds
 * the transaction elsewhere (an upload came first, a restart re-ran it) does nothing.
 */
import { randomUUID } from 'node:crypto';
import type { Callbacks } from './callbacks.js';
import type { JobPayload, JobRunner } from './jobs.js';
import { type Phase, SHOPPER_PRESENT, type Transaction, type TxStatus } from './model.js';
import { merchantInitiatedOutcome, type Outcome, outcomeOf } from './scenarios.js';
import type { Clock } from './scheduler.js';
import { applyOperation } from './state-machine.js';
import type { SandboxStore, TxContext } from './store.js';

export interface Timing {
  processingDelayMs: number;
  unknownDurationMs: number;
  threeDsTimeoutMs: number;
  lateApprovalMs: number;
}

/** Kinds run without the shopper: 3DS does not apply (but to a rebill the shopper pays in person). */
const MERCHANT_INITIATED = new Set(['rebill', 'recurring', 'payout', 'transfer']);

export class Processor {
  private readonly store: SandboxStore;
  private readonly jobs: JobRunner;
  private readonly clock: Clock;
  private readonly callbacks: Callbacks;
  readonly timing: Timing;

  constructor(
    store: SandboxStore,
    jobs: JobRunner,
    clock: Clock,
    callbacks: Callbacks,
    timing: Timing,
  ) {
    this.store = store;
    this.jobs = jobs;
    this.clock = clock;
    this.callbacks = callbacks;
    this.timing = timing;
    jobs.on('advance', (payload) => this.onAdvance(payload));
    jobs.on('expire-3ds', (payload) => this.onExpire(payload));
  }

  /** Schedules the transaction's next step after the processing delay. */
  async schedule(ctx: TxContext, tx: Transaction, delayMs = this.timing.processingDelayMs) {
    await this.jobs.enqueue(ctx, 'advance', { orderid: tx.orderid, phase: tx.phase }, delayMs);
  }

  outcome(tx: Transaction): Outcome {
    return MERCHANT_INITIATED.has(tx.kind) && tx.extra?.[SHOPPER_PRESENT] !== 'true'
      ? merchantInitiatedOutcome(tx.scenario)
      : outcomeOf(tx.scenario);
  }

  /** Ends the transaction in a final status and queues its callback. */
  async finish(
    ctx: TxContext,
    tx: Transaction,
    status: TxStatus,
    error?: { code: string; message: string },
  ): Promise<void> {
    tx.status = status;
    tx.phase = 'done';
    if (error) {
      tx.errorCode = error.code;
      tx.errorMessage = error.message;
    }
    if (status === 'approved') {
      if (tx.kind === 'preauth') tx.hold = 'held';
      else if (tx.kind !== 'account-verification') tx.settledMinor = tx.amountMinor;
    }
    await this.record(ctx, tx, tx.amountMinor, status);
  }

  /** Records the latest operation's outcome, saves, and queues its callback. */
  private async record(
    ctx: TxContext,
    tx: Transaction,
    amountMinor: number,
    status: TxStatus,
  ): Promise<void> {
    tx.operations.push({ type: tx.transactionType, amountMinor, status, at: this.clock.now() });
    await this.save(ctx, tx);
    await this.callbacks.enqueue(ctx, tx, amountMinor);
  }

  async save(ctx: TxContext, tx: Transaction): Promise<void> {
    tx.updatedAt = this.clock.now();
    await this.store.saveTx(ctx.q, tx);
  }

  /** Moves a 3DS transaction to a phase that waits on the browser, with its 10-minute expiry. */
  async awaitBrowser(ctx: TxContext, tx: Transaction, phase: Phase): Promise<void> {
    tx.phase = phase;
    tx.status = 'processing';
    const threeDs = tx.threeDs!;
    threeDs.step += 1;
    await this.save(ctx, tx);
    await this.jobs.enqueue(
      ctx,
      'expire-3ds',
      { orderid: tx.orderid, step: threeDs.step },
      this.approvesUnanswered(tx, phase)
        ? this.timing.lateApprovalMs
        : this.timing.threeDsTimeoutMs,
    );
  }

  /** A challenge the issuer approves when nobody answers it (the shopper confirmed elsewhere). */
  private approvesUnanswered(tx: Transaction, phase: Phase): boolean {
    const outcome = this.outcome(tx);
    return phase === 'awaiting-challenge' && outcome.kind === '3ds2' && !!outcome.lateApproval;
  }

  private async onAdvance(payload: JobPayload): Promise<void> {
    await this.store.withTx(async (ctx) => {
      const tx = await this.store.getTx(ctx.q, String(payload.orderid), true);
      if (!tx || tx.phase !== payload.phase) return;
      await this.advance(ctx, tx);
    });
  }

  private async advance(ctx: TxContext, tx: Transaction): Promise<void> {
    switch (tx.phase) {
      case 'authorizing':
        return this.authorize(ctx, tx);
      case 'unknown':
        return this.finish(ctx, tx, 'approved');
      case 'authenticating': {
        const outcome = this.outcome(tx);
        if (outcome.kind === '3ds2' && outcome.challenge) {
          return this.awaitBrowser(ctx, tx, 'awaiting-challenge');
        }
        return this.finish(ctx, tx, 'approved');
      }
      case 'completing':
        return tx.threeDs?.acsResult === 'Y'
          ? this.finish(ctx, tx, 'approved')
          : this.finish(ctx, tx, 'declined', {
              code: '3DS-FAILED',
              message: '3-D Secure authentication failed',
            });
      case 'operation': {
        const amount = tx.pending?.amountMinor ?? 0;
        applyOperation(tx);
        return this.record(ctx, tx, amount, 'approved');
      }
      case 'paying':
        tx.transactionType = 'payout';
        return this.authorize(ctx, tx);
      default:
        return;
    }
  }

  private async authorize(ctx: TxContext, tx: Transaction): Promise<void> {
    const outcome = this.outcome(tx);
    switch (outcome.kind) {
      case '3ds2':
        tx.threeDs = {
          version: '2',
          serverTransId: randomUUID(),
          acsTransId: randomUUID(),
          hasMethod: outcome.method !== 'none',
          step: 0,
        };
        return this.awaitBrowser(ctx, tx, 'awaiting-method-result');
      case '3ds1':
        tx.threeDs = {
          version: '1',
          serverTransId: randomUUID(),
          acsTransId: randomUUID(),
          hasMethod: false,
          ...(outcome.withoutMd ? {} : { md: randomUUID().replaceAll('-', '') }),
          step: 0,
        };
        return this.awaitBrowser(ctx, tx, 'awaiting-pares');
      default:
        return this.settleWithout3ds(ctx, tx);
    }
  }

  /**
   * Settles the outcome with no browser step; a 3DS outcome counts as approved. The hosted form
   * calls it too: it shows its own one-time-code page only when a code is needed, so what is
   * left here is frictionless. Unknown-then-approved reports `unknown` first, then approves.
   */
  async settleWithout3ds(ctx: TxContext, tx: Transaction): Promise<void> {
    const outcome = this.outcome(tx);
    switch (outcome.kind) {
      case 'decline':
        return this.finish(ctx, tx, 'declined', outcome);
      case 'error':
        return this.finish(ctx, tx, 'error', outcome);
      case 'filtered':
        return this.finish(ctx, tx, 'filtered', outcome);
      case 'unknown-then-approve':
      case 'unknown':
        tx.phase = 'unknown';
        tx.status = 'unknown';
        await this.save(ctx, tx);
        if (outcome.kind === 'unknown-then-approve') {
          await this.schedule(ctx, tx, this.timing.unknownDurationMs);
        }
        return;
      default:
        return this.finish(ctx, tx, 'approved');
    }
  }

  /**
   * A 3DS step the browser never finished ends declined after the timeout (10 minutes); a
   * late-approval challenge is approved instead, after its own shorter delay.
   */
  private async onExpire(payload: JobPayload): Promise<void> {
    await this.store.withTx(async (ctx) => {
      const tx = await this.store.getTx(ctx.q, String(payload.orderid), true);
      if (!tx?.threeDs || tx.threeDs.step !== payload.step) return;
      if (!['awaiting-method-result', 'awaiting-challenge', 'awaiting-pares'].includes(tx.phase)) {
        return;
      }
      if (this.approvesUnanswered(tx, tx.phase)) return this.finish(ctx, tx, 'approved');
      await this.finish(ctx, tx, 'declined', {
        code: '3DS-TIMEOUT',
        message: '3-D Secure authentication was not completed in time',
      });
    });
  }
}
