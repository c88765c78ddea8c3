/**
 * The browser's 3-D Secure results, uploaded to the gateway: the 3DS Method result (from the
 * widget), the CRes of a 3DS 2 challenge and the PaRes of 3DS 1.0.2 (both posted by the ACS to
 * our return page). Each step is claimed on the order with compare-and-set before the upload, so
 * a double submit or a replayed post uploads nothing twice. A failed upload is then one of:
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

/** Sends a claimed upload once and says how it went; an unknown outcome is recorded as sent. */
async function sendUpload(
  ctx: Context,
  order: Order,
  payload: UploadPayload,
  sends: number,
): Promise<SendResult> {
  try {
    await callGateway(ctx, order, payload);
  } catch (error) {
    if (refusedForSure(error)) return { kind: 'refused', order, error };
    ctx.logger.warn(
      { err: error, orderId: order.id, upload: payload.kind, sends },
      '3DS upload answer lost; the gateway status will tell whether it arrived',
    );
    const recorded = await recordSent(ctx, order, payload, sends);
    notifyOrder(ctx, order.id);
    return { kind: 'unknown', order: recorded };
  }
  notifyOrder(ctx, order.id);
  return { kind: 'uploaded', order };
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
  const claim = await ctx.store.orders.update(order.id, {
    version: order.version,
    patch: { threeDsCompInd: threeDSCompInd, nextAction: writeFlow({ ...flow, next: WAIT }) },
  });
  if (!claim.won || !claim.order) {
    if (claim.order && claim.order.threeDsCompInd !== null) return alreadyReported(claim.order);
    throw new HttpError(409, 'conflict', 'This order is not waiting for a 3DS Method result');
  }
  const sent = await sendUpload(
    ctx,
    claim.order,
    {
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
    },
    1,
  );
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
  const claim = await ctx.store.orders.update(order.id, {
    version: order.version,
    patch: { nextAction: writeFlow({ ...flow, next: WAIT, answered: [...flow.answered, key] }) },
  });
  if (!claim.won || !claim.order) return 'replay';
  const payload: UploadPayload =
    answer.kind === 'cres'
      ? { kind: 'cres', key, cres: answer.cres }
      : { kind: 'pares', key, paRes: answer.paRes, md: answer.md };
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
 * period passed (sent-upload.ts). The resend is claimed on the order first, so instances that
 * poll the same order at once send it once between them.
 */
export async function resendLostUpload(ctx: Context, order: Order): Promise<Order> {
  const flow = readFlow(order);
  const sent = flow.sent;
  if (!sent || !resendDue(sent, Date.now()) || !order.gatewayOrderId) return order;
  const sends = sent.sends + 1;
  const claim = await ctx.store.orders.update(order.id, {
    version: order.version,
    patch: { nextAction: writeFlow({ ...flow, sent: { ...sent, sentAt: Date.now(), sends } }) },
  });
  if (!claim.won || !claim.order) return claim.order ?? order;
  ctx.logger.info(
    { orderId: order.id, upload: sent.kind, sends },
    'the gateway status shows a lost 3DS upload never arrived; sending it again',
  );
  const { sentAt: _sentAt, sends: _sends, ...payload } = sent;
  const result = await sendUpload(ctx, claim.order, payload, sends);
  if (result.kind === 'unknown') return result.order;
  if (result.kind === 'refused') {
    // Most likely the original arrived late and the gateway has moved on; either way only its
    // status can move the order now (or its 3DS expiry, through the reconciler).
    ctx.logger.warn(
      { err: result.error, orderId: order.id, upload: sent.kind, sends },
      'the gateway refused a resent 3DS upload',
    );
  }
  const settled = await ctx.store.orders.update(order.id, {
    version: result.order.version,
    patch: { nextAction: writeFlow({ ...readFlow(result.order), sent: undefined }) },
  });
  return settled.order ?? result.order;
}
