/**
 * The browser's 3-D Secure results, uploaded to the gateway: the 3DS Method result (from the
 * widget), the CRes of a 3DS 2 challenge and the PaRes of 3DS 1.0.2 (both posted by the ACS to
 * our return page). Each step is claimed on the order with compare-and-set before the upload, so
 * a double submit or a replayed post uploads nothing twice. The claim writes the upload ahead, as
 * sent (sent-upload.ts, with a lease): an instance that dies between its claim and the gateway's
 * answer leaves it recorded, and whoever follows the order next (the shopper's widget on any
 * instance, the reconciler) sends it again once the lease is over and the gateway's status still
 * asks for it. Answered, the record goes. A failed upload is then one of:
 *  - refused (the gateway said no, refusal.ts): a 3DS Method result's claim is given back so the
 *    browser may retry; a CRes or PaRes is never retried (its CReq/PaReq is used up): the order
 *    waits on the gateway's status;
 *  - of unknown outcome (the answer was lost): the gateway may have committed it, so the browser
 *    step stays over, the upload is recorded as sent (sent-upload.ts) and the order waits on the
 *    gateway's status, which tells the next step, or shows the upload never arrived (then the
 *    recorded upload is sent again, see resendLostUpload).
 */
import type { BrowserInfo } from '../../../../contract/api-types.js';
import { type Order, PENDING_ORDER_STATUSES } from '../../store/index.js';
import { type Context, inScope, notifyOrder } from '../context.js';
import { badRequest, HttpError } from '../errors.js';
import { challengeKey, readFlow, WAIT, writeFlow } from '../following/flow-state.js';
import type { BrowserRequestFacts } from '../payments/browser-facts.js';
import { refusedForSure } from './refusal.js';
import { resendDue, type SentUpload, type UploadPayload } from './sent-upload.js';

type SendResult =
  | { kind: 'uploaded'; order: Order }
  | { kind: 'unknown'; order: Order }
  | { kind: 'refused'; order: Order; error: unknown };

function callGateway(ctx: Context, order: Order, payload: UploadPayload): Promise<unknown> {
  const base = { orderid: order.gatewayOrderId as string, 'client-order-id': order.clientOrderId };
  return inScope(ctx, { orderId: order.id }, () => {
    if (payload.kind === 'method') {
      return ctx.gateway.uploadMethodUrlResult({ ...base, ...payload.fields });
    }
    if (payload.kind === 'cres')
      return ctx.gateway.uploadCresResult({ ...base, cres: payload.cres });
    return ctx.gateway.uploadParesResult({
      ...base,
      paRes: payload.paRes,
      ...(payload.md ? { md: payload.md } : {}),
    });
  });
}

/**
 * Notes on the order that `payload` was sent and its outcome is unknown. Lost to another writer:
 * when that writer already moved the order on (a final status, a new step from the status), the
 * status spoke and there is nothing to note; otherwise try again on its version.
 */
async function recordSent(
  ctx: Context,
  order: Order,
  payload: UploadPayload,
  sends: number,
): Promise<Order> {
  let current = order;
  for (let attempt = 0; attempt < 3; attempt++) {
    const flow = readFlow(current);
    if (!PENDING_ORDER_STATUSES.includes(current.status) || flow.next.action !== 'wait') {
      return current;
    }
    const sent: SentUpload = { ...payload, sentAt: Date.now(), sends };
    const write = await ctx.store.orders.update(current.id, {
      version: current.version,
      patch: { nextAction: writeFlow({ ...flow, sent }) },
    });
    if (write.won && write.order) return write.order;
    if (!write.order) return current;
    current = write.order;
  }
  return current;
}

/**
 * The record a claim writes before its upload leaves: sent once, its answer not in yet. Until
 * `leaseUntil` the claimer may still be sending it (the gateway client gives up well before), so
 * no one else sends it; after it, only a status that still asks for this very upload makes anyone
 * send it again (applyStatus, resendLostUpload).
 */
function claimedUpload(ctx: Context, payload: UploadPayload, sends: number): SentUpload {
  const now = Date.now();
  return { ...payload, sentAt: now, sends, leaseUntil: now + ctx.timing.sendLeaseMs };
}

/**
 * The gateway answered send number `sends` (took it, or refused it): its record goes. Lost to
 * another writer: done on that writer's version, unless the record is gone or is another send's.
 */
async function clearSent(ctx: Context, order: Order, sends: number): Promise<Order> {
  let current = order;
  for (let attempt = 0; attempt < 3; attempt++) {
    const flow = readFlow(current);
    if (!flow.sent || flow.sent.sends !== sends) return current;
    const write = await ctx.store.orders.update(current.id, {
      version: current.version,
      patch: { nextAction: writeFlow({ ...flow, sent: undefined }) },
    });
    if (write.won && write.order) return write.order;
    if (!write.order) return current;
    current = write.order;
  }
  return current;
}

/**
 * Sends a claimed upload once and says how it went; an unknown outcome is recorded as sent, an
 * answer (taken or refused) clears the claim's record.
 */
async function sendUpload(
  ctx: Context,
  order: Order,
  payload: UploadPayload,
  sends: number,
): Promise<SendResult> {
  try {
    await callGateway(ctx, order, payload);
  } catch (error) {
    if (refusedForSure(error)) {
      return { kind: 'refused', order: await clearSent(ctx, order, sends), error };
    }
    ctx.logger.warn(
      { err: error, orderId: order.id, upload: payload.kind, sends },
      '3DS upload answer lost; the gateway status will tell whether it arrived',
    );
    const recorded = await recordSent(ctx, order, payload, sends);
    notifyOrder(ctx, order.id);
    return { kind: 'unknown', order: recorded };
  }
  const cleared = await clearSent(ctx, order, sends);
  notifyOrder(ctx, order.id);
  return { kind: 'uploaded', order: cleared };
}

export async function submitMethodResult(
  ctx: Context,
  order: Order,
  threeDSCompInd: 'Y' | 'N' | 'U',
  browser: Required<BrowserInfo>,
  facts: BrowserRequestFacts,
): Promise<Order> {
  const alreadyReported = (current: Order): Order => {
    // The same report again (the widget retries a call whose answer it lost): the result is in
    // our hands already, so nothing is sent; the caller answers where the order stands now.
    if (current.threeDsCompInd === threeDSCompInd) return current;
    throw new HttpError(
      409,
      'conflict',
      'The 3DS Method result was already reported for this order',
    );
  };
  const flow = readFlow(order);
  if (order.threeDsCompInd !== null) return alreadyReported(order);
  if (flow.next.action !== 'method' || !order.threeDsServerTransId || !order.gatewayOrderId) {
    throw new HttpError(409, 'conflict', 'This order is not waiting for a 3DS Method result');
  }
  // `U` says there was no Method URL to run: for an order that has one the gateway refuses it,
  // so it is refused here, with nothing sent (the element sends Y or N then).
  if (threeDSCompInd === 'U' && flow.next.action === 'method' && flow.next.methodUrl) {
    throw badRequest(
      'threeDSCompInd',
      'threeDSCompInd: is U (no 3DS Method URL), but this order has a 3DS Method URL: send Y or N',
    );
  }
  const payload: UploadPayload = {
    kind: 'method',
    fields: {
      threeDSServerTransID: order.threeDsServerTransId,
      browserAcceptHeader: facts.acceptHeader,
      browserIP: facts.ip,
      browserJavaEnabled: browser.javaEnabled,
      browserJavascriptEnabled: browser.javascriptEnabled,
      browserLanguage: browser.language,
      browserColorDepth: browser.colorDepth,
      browserScreenHeight: browser.screenHeight,
      browserScreenWidth: browser.screenWidth,
      browserTZ: browser.timezoneOffset,
      browserUserAgent: facts.userAgent,
      challengeWindowSize: browser.challengeWindowSize,
      threeDSCompInd,
    },
  };
  // The claim and the upload's record, in one write: see claimedUpload.
  const claim = await ctx.store.orders.update(order.id, {
    version: order.version,
    patch: {
      threeDsCompInd: threeDSCompInd,
      nextAction: writeFlow({ ...flow, next: WAIT, sent: claimedUpload(ctx, payload, 1) }),
    },
  });
  if (!claim.won || !claim.order) {
    if (claim.order && claim.order.threeDsCompInd !== null) return alreadyReported(claim.order);
    throw new HttpError(409, 'conflict', 'This order is not waiting for a 3DS Method result');
  }
  const sent = await sendUpload(ctx, claim.order, payload, 1);
  if (sent.kind === 'refused') {
    // A real refusal: the gateway did not take it, so the step is the browser's again.
    await ctx.store.orders.update(order.id, {
      version: sent.order.version,
      patch: { threeDsCompInd: null, nextAction: writeFlow(flow) },
    });
    throw sent.error;
  }
  return sent.order;
}

export type ChallengeAnswer =
  | { kind: 'cres'; cres: string }
  | { kind: 'pares'; paRes: string; md: string | undefined };

/**
 * `uploaded`: the gateway took it. `unknown`: sent, its answer lost; the status decides.
 * `refused`: the gateway refused it; the order waits on the gateway's status. `replay`: already
 * answered, nothing sent. `not-expected`: the order shows no such challenge.
 */
export type AnswerOutcome = 'uploaded' | 'unknown' | 'refused' | 'replay' | 'not-expected';

/** Uploads a CRes or PaRes for the challenge the order shows; replays change nothing. */
export async function submitChallengeAnswer(
  ctx: Context,
  order: Order,
  answer: ChallengeAnswer,
): Promise<AnswerOutcome> {
  const flow = readFlow(order);
  const expected = answer.kind === 'cres' ? 'challenge' : '3ds1';
  const key = challengeKey(flow.next);
  if (flow.next.action !== expected || !key || !order.gatewayOrderId) {
    return flow.answered.length > 0 ? 'replay' : 'not-expected';
  }
  const payload: UploadPayload =
    answer.kind === 'cres'
      ? { kind: 'cres', key, cres: answer.cres }
      : { kind: 'pares', key, paRes: answer.paRes, md: answer.md };
  // The claim and the upload's record, in one write: see claimedUpload. A replayed post finds
  // the key answered and sends nothing; the record is what sends it again if we die now.
  const claim = await ctx.store.orders.update(order.id, {
    version: order.version,
    patch: {
      nextAction: writeFlow({
        ...flow,
        next: WAIT,
        answered: [...flow.answered, key],
        sent: claimedUpload(ctx, payload, 1),
      }),
    },
  });
  if (!claim.won || !claim.order) return 'replay';
  const sent = await sendUpload(ctx, claim.order, payload, 1);
  if (sent.kind === 'refused') {
    // The CReq or PaReq is used up (an ACS refuses a second one), so the challenge is never shown
    // again: its key stays answered, the order waits, and the gateway's status decides.
    ctx.logger.warn(
      { err: sent.error, orderId: order.id, upload: payload.kind },
      'the gateway refused the challenge result; its status decides',
    );
    notifyOrder(ctx, order.id);
    return 'refused';
  }
  return sent.kind;
}

/**
 * Sends a recorded upload again, once the gateway's status showed it never got it and the grace
 * period (and the claimer's lease) passed (sent-upload.ts). The resend is claimed on the order
 * first, compare-and-set on its version with a new lease, so instances that poll the same order
 * at once send it once between them, and one that dies mid-resend leaves it to the next. Why a
 * resend is never applied twice: it goes only while the gateway's status still asks for this
 * very upload (its step, its challenge's fingerprint), after every earlier send has ended (the
 * lease outlives the gateway client's timeout); and a gateway refuses an upload for a step it is
 * no longer in, so even a late original racing it is applied once.
 */
export async function resendLostUpload(ctx: Context, order: Order): Promise<Order> {
  const flow = readFlow(order);
  const sent = flow.sent;
  if (!sent || !resendDue(sent, Date.now()) || !order.gatewayOrderId) return order;
  const sends = sent.sends + 1;
  const { sentAt: _sentAt, sends: _sends, leaseUntil: _lease, ...payload } = sent;
  const claim = await ctx.store.orders.update(order.id, {
    version: order.version,
    patch: { nextAction: writeFlow({ ...flow, sent: { ...claimedUpload(ctx, payload, sends) } }) },
  });
  if (!claim.won || !claim.order) return claim.order ?? order;
  ctx.logger.info(
    { orderId: order.id, upload: sent.kind, sends },
    'the gateway status shows a lost 3DS upload never arrived; sending it again',
  );
  const result = await sendUpload(ctx, claim.order, payload, sends);
  if (result.kind === 'refused') {
    // Most likely the original arrived late and the gateway has moved on; either way only its
    // status can move the order now (or its 3DS expiry, through the reconciler).
    ctx.logger.warn(
      { err: result.error, orderId: order.id, upload: sent.kind, sends },
      'the gateway refused a resent 3DS upload',
    );
  }
  // Answered (taken or refused): sendUpload cleared the record; lost: it was noted again.
  return result.order;
}
