/**
 * Recurring payments (v4, RSA): `period` (day|week|month), `interval` (1-365), amount, currency,
 * a card reference and the customer (`email`, optional first/last name). Returns
 * `recurring-payment-id`. Charges run on the injectable clock: the first one `interval` periods
 * after `start-date` (default: now), each a `recurring` transaction with client_orderid
 * `{recurring-payment-id}-{n}`, seen through status and callbacks, until `max-repeats-number`.
 */
import { randomUUID } from 'node:crypto';
import type { Sandbox } from '../context.js';
import { invalidField } from '../http/errors.js';
import { amountMinor, RULES, textRule } from '../http/fields.js';
import type { OperationDef } from '../http/operation.js';
import { serialNumber } from '../http/respond.js';
import type { RecurringPayment } from '../store.js';
import { cardOf, ownCardRef } from './card-refs.js';
import { createTransaction, readCurrency } from './common.js';

const DAY_MS = 86_400_000;

export function nextChargeAt(
  from: number,
  period: RecurringPayment['period'],
  interval: number,
): number {
  if (period === 'day') return from + interval * DAY_MS;
  if (period === 'week') return from + interval * 7 * DAY_MS;
  const date = new Date(from);
  date.setUTCMonth(date.getUTCMonth() + interval);
  return date.getTime();
}

const createRecurringPayment: OperationDef = {
  path: 'api/v4/create-recurring-payment',
  auth: 'RSA-SHA256',
  async handle(call) {
    const { fields, sandbox } = call;
    const cardRefId = fields.required('card-ref-id', RULES.id);
    const period = fields.required('period', {
      test: (v) => v === 'day' || v === 'week' || v === 'month',
      what: 'day, week or month',
    }) as RecurringPayment['period'];
    const interval = Number(
      fields.required('interval', {
        test: (v) => /^[1-9]\d{0,2}$/.test(v) && Number(v) <= 365,
        what: 'an integer from 1 to 365',
      }),
    );
    const currency = readCurrency(fields);
    const minor = amountMinor(fields, currency);
    const email = fields.required('email', RULES.email);
    const firstName = fields.optional('first-name', RULES.name);
    const lastName = fields.optional('last-name', RULES.name);
    fields.optional('phone', RULES.phone);
    fields.optional('comment', RULES.description);
    const callbackUrl = fields.optional('server_callback_url', RULES.url);
    const maxRepeats = fields.optional('max-repeats-number', {
      test: (v) => /^[1-9]\d{0,3}$/.test(v),
      what: 'an integer from 1 to 9999',
    });
    const startDate = fields.optional('start-date', textRule(10, 'a date YYYY-MM-DD'));
    let start = sandbox.clock.now();
    if (startDate) {
      const parsed = /^\d{4}-\d{2}-\d{2}$/.test(startDate)
        ? Date.parse(`${startDate}T00:00:00Z`)
        : Number.NaN;
      if (Number.isNaN(parsed)) throw invalidField('start-date', 'must be a date YYYY-MM-DD');
      start = Math.max(start, parsed);
    }
    await ownCardRef(call, sandbox.store.db, cardRefId);
    const rp: RecurringPayment = {
      id: randomUUID(),
      endpointId: call.endpointId,
      cardRefId,
      amountMinor: minor,
      currency,
      period,
      interval,
      email,
      ...(firstName ? { firstName } : {}),
      ...(lastName ? { lastName } : {}),
      ...(callbackUrl ? { callbackUrl } : {}),
      ...(maxRepeats ? { maxRepeats: Number(maxRepeats) } : {}),
      charges: 0,
      nextChargeAt: nextChargeAt(start, period, interval),
      startedAt: start,
      active: true,
    };
    await sandbox.store.withTx(async (ctx) => {
      await sandbox.store.saveRecurring(ctx.q, rp, true);
      await sandbox.jobs.enqueue(
        ctx,
        'recurring-charge',
        { id: rp.id, n: 1 },
        rp.nextChargeAt - sandbox.clock.now(),
      );
    });
    return {
      type: 'create-recurring-payment-response',
      status: 'approved',
      'serial-number': serialNumber(),
      'recurring-payment-id': rp.id,
      'end-point-id': call.endpointId,
    };
  },
};

/** One scheduled charge; schedules the next. */
export function registerRecurringJobs(sandbox: Sandbox): void {
  sandbox.jobs.on('recurring-charge', async (payload) => {
    const id = String(payload.id);
    const n = Number(payload.n);
    const rp = await sandbox.store.getRecurring(sandbox.store.db, id);
    if (!rp?.active || rp.charges >= n) return;
    const ref = await sandbox.store.getCardRef(sandbox.store.db, rp.cardRefId);
    if (!ref) return;
    await createTransaction(sandbox, rp.endpointId, {
      kind: 'recurring',
      transactionType: 'recurring',
      clientOrderId: `${rp.id}-${n}`,
      amountMinor: rp.amountMinor,
      currency: rp.currency,
      scenario: ref.scenario,
      card: cardOf(ref),
      email: rp.email,
      ...(rp.callbackUrl ? { callbackUrl: rp.callbackUrl } : {}),
      extra: { recurringPaymentId: rp.id, cardRefId: ref.id },
    });
    await sandbox.store.withTx(async (ctx) => {
      const fresh = (await sandbox.store.getRecurring(ctx.q, id, true))!;
      fresh.charges = n;
      fresh.nextChargeAt = nextChargeAt(fresh.nextChargeAt, fresh.period, fresh.interval);
      if (fresh.maxRepeats !== undefined && n >= fresh.maxRepeats) fresh.active = false;
      await sandbox.store.saveRecurring(ctx.q, fresh, false);
      if (fresh.active) {
        await sandbox.jobs.enqueue(
          ctx,
          'recurring-charge',
          { id, n: n + 1 },
          fresh.nextChargeAt - sandbox.clock.now(),
        );
      }
    });
  });
}

export const recurringOperations: OperationDef[] = [createRecurringPayment];
