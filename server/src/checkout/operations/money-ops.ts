/**
 * Capture, void and return of a checkout order. Each is checked against the order as stored
 * before any gateway call (a request the state forbids is a 409 naming the reason), recorded as a
 * merchant operation, sent once, then followed through the status of the order's transaction
 * until the gateway reports that operation final. The order's captured / returned / voided
 * amounts move only when the gateway approved, exactly once (compare-and-set on the operation).
 */
import { randomUUID } from 'node:crypto';
import { GatewayError, type StatusResponse } from '../../gateway/index.js';
import { fromMinorUnits } from '../../signing/index.js';
import type { CheckoutRepositories, MerchantOperation, Order } from '../../store/index.js';
import { type Context, inScope } from '../context.js';
import { conflict, conflictForNow, HttpError, notFound } from '../errors.js';
import { isFinalStatus } from '../following/next-action.js';
import { statusMismatch } from '../following/status-match.js';
import { followUntilFinal, pollOperation } from './follow-operation.js';
import { finalizeOperation, markAnswerLost } from './operations-status.js';

export type MoneyOpKind = 'capture' | 'void' | 'return';

/** Refuses what the order's state forbids; answers the amount (minor units) the op moves. */
export function checkMoneyOp(
  order: Order,
  kind: MoneyOpKind,
  requestedMinor: number | undefined,
): number {
  if (order.status !== 'approved') {
    throw conflict(
      `Order ${order.clientOrderId} is ${order.status}; only an approved order can be ${pastTense(kind)}`,
    );
  }
  if (!order.gatewayOrderId)
    throw conflict(`Order ${order.clientOrderId} has no gateway transaction`);
  const held = order.intent === 'preauth' && order.voidedAt === null && order.capturedMinor === 0;
  if (kind === 'capture') {
    if (order.intent !== 'preauth')
      throw conflict('Only a preauth can be captured; this order is a sale');
    if (order.voidedAt)
      throw conflict('The hold of this preauth was released; it cannot be captured');
    if (order.capturedMinor > 0) throw conflict('This preauth was already captured');
    const amount = requestedMinor ?? order.amountMinor;
    if (amount <= 0)
      throw new HttpError(400, 'validation', 'amount must be more than zero', 'amount');
    if (amount > order.amountMinor) throw conflict('The capture amount exceeds the amount held');
    return amount;
  }
  if (kind === 'void') {
    if (order.intent !== 'preauth')
      throw conflict('Only a preauth still holding funds can be voided; return a sale instead');
    if (order.voidedAt) throw conflict('This preauth was already voided');
    if (order.capturedMinor > 0)
      throw conflict('This preauth was captured; return it instead of voiding');
    return order.amountMinor;
  }
  if (order.voidedAt)
    throw conflict('The hold of this preauth was released; nothing is left to return');
  if (held) {
    if (requestedMinor !== undefined && requestedMinor !== order.amountMinor) {
      throw conflict('A return on an uncaptured preauth releases the whole hold; send no amount');
    }
    return order.amountMinor;
  }
  const settled = order.intent === 'sale' ? order.amountMinor : order.capturedMinor;
  const remaining = settled - order.returnedMinor;
  if (remaining <= 0) throw conflict('This order was already returned in full');
  const amount = requestedMinor ?? remaining;
  if (amount <= 0)
    throw new HttpError(400, 'validation', 'amount must be more than zero', 'amount');
  if (amount > remaining)
    throw conflict(
      `The return amount exceeds what remains settled (${fromMinorUnits(remaining, order.currency)})`,
    );
  return amount;
}

function pastTense(kind: MoneyOpKind): string {
  return kind === 'capture' ? 'captured' : kind === 'void' ? 'voided' : 'returned';
}

/**
 * Checks the order as it stands and records the operation in one transaction, with the order row
 * locked: concurrent captures or returns on one order are serialised here, one pending money
 * movement per order at a time, so their sum never exceeds what the order allows even where the
 * gateway would accept it. The check sees every earlier movement that reached a final status
 * (finalizeOperation commits the operation and the order's amounts together).
 */
async function reserveMoneyOp(
  ctx: Context,
  orderRowId: string,
  kind: MoneyOpKind,
  requestedMinor: number | undefined,
  keyId: string | undefined,
): Promise<{ order: Order; operation: MerchantOperation; earlier: boolean }> {
  return ctx.store.transaction(async (tx) => {
    const order = await tx.orders.lockForMoneyOperation(orderRowId);
    if (!order) throw notFound('Order');
    const clientId = `${order.clientOrderId}:${kind}:${keyId ? `key:${keyId}` : randomUUID()}`;
    if (keyId) {
      const earlier = await tx.operations.getByClientId(kind, clientId);
      if (earlier) {
        // The key's record is gone (a 5xx, or a claim that outlived its instance), not the body
        // check it held: the body must still ask for what the earlier attempt did.
        if ((earlier.data.requestedMinor ?? null) !== (requestedMinor ?? null)) {
          throw new HttpError(
            422,
            'idempotency-conflict',
            'This Idempotency-Key was used with a different body',
          );
        }
        return { order, operation: earlier, earlier: true };
      }
    }
    const pending = await tx.operations.pendingMoneyOpOf(order.id);
    if (pending) throw await pendingConflict(tx.operations, order, pending);
    const amountMinor = checkMoneyOp(order, kind, requestedMinor);
    const releasesHold =
      order.intent === 'preauth' && order.capturedMinor === 0 && kind !== 'capture';
    const operation = await tx.operations.create({
      kind,
      clientId,
      gatewayOrderId: order.gatewayOrderId,
      amountMinor,
      currency: order.currency,
      data: {
        orderRowId: order.id,
        orderId: order.clientOrderId,
        releasesHold,
        requestedMinor: requestedMinor ?? null,
      },
    });
    return { order, operation, earlier: false };
  });
}

/**
 * Why a money operation cannot start while another of the order is pending, and for how long:
 * not kept under the Idempotency-Key in any case, since the other one's end lifts it.
 */
async function pendingConflict(
  operations: Pick<CheckoutRepositories['operations'], 'hasFinalTwin'>,
  order: Order,
  pending: MerchantOperation,
): Promise<HttpError> {
  const what = `A ${pending.kind} of order ${order.clientOrderId} (operation ${pending.id})`;
  if (pending.status !== 'unknown') {
    return conflictForNow(`${what} is still processing; try again once it is final`, 5);
  }
  if (await operations.hasFinalTwin(pending)) {
    return conflictForNow(
      `${what} is unknown and waits for a person: check it in the gateway's back office, then POST /v1/operations/${pending.id}/resolve`,
    );
  }
  // Asked again at every pass; one that never reached the gateway stays unknown until resolved.
  return conflictForNow(
    `${what} is unknown: its answer was lost and the reconciler is asking the gateway; try again once it is final, or, if it stays unknown, check it in the gateway's back office and POST /v1/operations/${pending.id}/resolve`,
    60,
  );
}

/**
 * `loaded`: the order as the caller read it; the check runs on the row as it is when locked.
 * `keyId` (idempotency.ts, keyedOperationId): with one, an earlier attempt under the same key is
 * answered, never sent again.
 */
export async function runMoneyOp(
  ctx: Context,
  loaded: Order,
  kind: MoneyOpKind,
  requestedMinor: number | undefined,
  keyId?: string,
): Promise<{ order: Order; operation: MerchantOperation }> {
  const { order, operation, earlier } = await reserveMoneyOp(
    ctx,
    loaded.id,
    kind,
    requestedMinor,
    keyId,
  );
  if (earlier) return { order, operation: await resumeEarlier(ctx, operation) };
  const sent = await sendMoneyOp(ctx, operation);
  if (sent.kind === 'refused') {
    throw conflict(`The gateway refused the ${kind}: ${sent.reason ?? 'no reason given'}`);
  }
  // Unknown outcome: the operation stays pending and the reconciler asks the gateway. It is
  // answered (202 `unknown`), not thrown: a 502 would release the Idempotency-Key, and the
  // merchant's retry would move the money a second time.
  if (sent.kind === 'lost') return { order, operation: sent.operation };
  const settled = await followMoneyOp(ctx, sent.operation, ctx.timing.operationFollowMs);
  return { order: (await ctx.store.orders.get(order.id)) ?? order, operation: settled };
}

/**
 * Whether the operation asks for part of the amount (sent with `amount` and `currency`); read
 * from what reserveMoneyOp recorded, so that a resend asks exactly what the first send asked.
 */
function isPartial(operation: MerchantOperation): boolean {
  return (
    operation.kind !== 'void' &&
    operation.data.requestedMinor !== null &&
    operation.data.requestedMinor !== undefined &&
    operation.data.releasesHold !== true
  );
}

type SendOutcome =
  /** The gateway took it (`processing`): its status tells the end. */
  | { kind: 'sent'; operation: MerchantOperation }
  /** The gateway refused it: final `error`, nothing moved. */
  | { kind: 'refused'; operation: MerchantOperation; reason: string | undefined }
  /** Its answer was lost: `unknown` until a status says otherwise. */
  | { kind: 'lost'; operation: MerchantOperation };

/**
 * Sends a reserved (`new`) capture, void or return to the gateway once, everything the request
 * needs taken from the operation as recorded, and records how it went.
 */
async function sendMoneyOp(ctx: Context, operation: MerchantOperation): Promise<SendOutcome> {
  const kind = operation.kind as MoneyOpKind;
  const currency = operation.currency as string;
  const orderRowId = String(operation.data.orderRowId ?? '');
  const request = {
    client_orderid: String(operation.data.orderId ?? ''),
    orderid: operation.gatewayOrderId as string,
    ...(isPartial(operation)
      ? { amount: fromMinorUnits(operation.amountMinor as number, currency), currency }
      : {}),
  };
  try {
    await inScope(ctx, { orderId: orderRowId, operationId: operation.id }, () =>
      kind === 'capture'
        ? ctx.gateway.capture(request)
        : kind === 'void'
          ? ctx.gateway.voidTransaction({
              client_orderid: request.client_orderid,
              orderid: request.orderid,
            })
          : ctx.gateway.returnTransaction(request),
    );
  } catch (error) {
    if (error instanceof GatewayError && error.code === 'gateway-validation') {
      const refused = await finalizeOperation(ctx, operation, 'error', {
        reason: error.errorMessage,
        errorCode: error.errorCode,
      });
      return { kind: 'refused', operation: refused, reason: error.errorMessage };
    }
    return { kind: 'lost', operation: await markAnswerLost(ctx, operation, error) };
  }
  const moved = await ctx.store.operations.transition(operation.id, {
    from: ['new'],
    to: 'processing',
  });
  return { kind: 'sent', operation: moved.operation ?? operation };
}

/**
 * Whether a status answer of the operation's order proves that the gateway never took this
 * operation. Our captures, voids and returns of one order are serialised (reserveMoneyOp: one
 * pending at a time), and the gateway's status of a transaction describes its latest operation
 * (its type and amount, `processing` while it runs). So while this one is pending, a final status
 * that describes something else (the sale or preauth itself, an earlier capture, a return of
 * another amount) says that this one never arrived: had it, it would be the latest. Only positive
 * evidence counts: a status without a transaction type, or of this kind without an amount, or
 * still processing, proves nothing. A final twin (an earlier operation of the same kind and
 * amount) is excluded before (pollMoneyOp): its status cannot be told from this one's.
 */
function showsNeverArrived(operation: MerchantOperation, status: StatusResponse): boolean {
  if (!isFinalStatus(status.status)) return false;
  if (statusMismatch(status, { gatewayOrderId: operation.gatewayOrderId })) return false;
  const type = status.transactionType?.toLowerCase();
  if (!type) return false;
  if (type !== operation.kind) return true;
  if (!status.amount) return false;
  return (
    statusMismatch(status, {
      gatewayOrderId: null,
      amountMinor: operation.amountMinor,
      currency: operation.currency,
    }) !== undefined
  );
}

/**
 * A capture, void or return still `unknown` once its lease is over (sendLeaseMs since its last
 * send began, longer than the gateway client's timeout) and the status poll did not settle it: sent again when the gateway's status proves it never
 * took it (showsNeverArrived), else left for the next pass. This is what settles one that never
 * reached the gateway (its instance died after reserving it, the gateway was unreachable, the
 * request was lost on its way), a late approval's reversal included.
 *
 * Why it is never applied twice:
 *  - the proof: a status asked after every earlier send of it has ended (the lease) that
 *    describes another operation shows none of them arrived, since this one would be the latest;
 *  - the resend is claimed first, `unknown` to `new` compare-and-set on the version read before
 *    the status was asked: of instances racing, one sends; and one whose status was read before
 *    another's resend left finds the version moved and sends nothing;
 *  - a resend that dies or loses its answer is `unknown` again, and waits for a new lease and a
 *    new proof; one the gateway refuses ends as `error` (nothing moved).
 */
export async function resendIfNeverArrived(
  ctx: Context,
  operation: MerchantOperation,
): Promise<MerchantOperation> {
  if (operation.status !== 'unknown' || !operation.gatewayOrderId) return operation;
  // Its last send began when it was reserved, or when its last resend was claimed, and ended
  // within the gateway client's timeout: past the lease, none is still on its way.
  const lastSendAt =
    typeof operation.data.resentAt === 'number'
      ? operation.data.resentAt
      : operation.createdAt.getTime();
  if (Date.now() - lastSendAt < ctx.timing.sendLeaseMs) return operation;
  if (await ctx.store.operations.hasFinalTwin(operation)) return operation;
  let status: StatusResponse;
  try {
    status = await inScope(ctx, { operationId: operation.id }, () =>
      ctx.gateway.status({
        client_orderid: String(operation.data.orderId ?? ''),
        orderid: operation.gatewayOrderId as string,
      }),
    );
  } catch (error) {
    ctx.logger.warn({ err: error, operationId: operation.id }, 'operation status poll failed');
    return operation;
  }
  if (!showsNeverArrived(operation, status)) return operation;
  const resends = Number(operation.data.resends ?? 0) + 1;
  const claim = await ctx.store.operations.transition(operation.id, {
    from: ['unknown'],
    to: 'new',
    version: operation.version,
    patch: { data: { ...operation.data, resends, resentAt: Date.now() } },
  });
  if (!claim.won || !claim.operation) return claim.operation ?? operation;
  ctx.logger.warn(
    { operationId: operation.id, kind: operation.kind, orderId: operation.data.orderId, resends },
    'the gateway status shows this operation never arrived; sending it again',
  );
  const sent = await sendMoneyOp(ctx, claim.operation);
  return sent.kind === 'sent' ? pollMoneyOp(ctx, sent.operation) : sent.operation;
}

/**
 * An earlier attempt under the same Idempotency-Key. Still `new`, it never recorded whether its
 * request left (its instance died, or its answer was a 5xx after the send): it may have moved the
 * money, so it is `unknown` from now on. Otherwise it is followed as any operation is.
 */
async function resumeEarlier(
  ctx: Context,
  operation: MerchantOperation,
): Promise<MerchantOperation> {
  if (operation.status === 'new') {
    return markAnswerLost(
      ctx,
      operation,
      new Error('an earlier attempt under this Idempotency-Key did not record its outcome'),
    );
  }
  if (operation.status === 'processing' || operation.status === 'unknown') {
    return followMoneyOp(ctx, operation, ctx.timing.operationFollowMs);
  }
  return operation;
}

/** Polls the transaction's status until the gateway reports this operation final. */
export function followMoneyOp(
  ctx: Context,
  operation: MerchantOperation,
  waitMs: number,
): Promise<MerchantOperation> {
  return followUntilFinal(ctx, operation, waitMs, pollMoneyOp);
}

/**
 * One status poll of a money movement: asked by the order's id, counted only for its own type.
 * One whose answer was lost, on an order where an earlier movement of the same kind and amount
 * is final, is not asked: the answer would describe either, and taking the earlier one's
 * `approved` for it would record a refund nobody made. It stays `unknown` for a person to check
 * at the gateway and resolve (merchant-api/operations.ts; docs/merchant-api.md#lost-answers).
 */
export async function pollMoneyOp(
  ctx: Context,
  operation: MerchantOperation,
): Promise<MerchantOperation> {
  if (operation.status === 'unknown' && (await ctx.store.operations.hasFinalTwin(operation))) {
    ctx.logger.error(
      { operationId: operation.id, kind: operation.kind, orderId: operation.data.orderId },
      'a lost answer that the order status cannot tell from an earlier twin: check it at the gateway, then POST /v1/operations/{id}/resolve',
    );
    return operation;
  }
  return pollOperation(ctx, operation, {
    clientOrderId: String(operation.data.orderId ?? ''),
    transactionType: operation.kind,
  });
}
