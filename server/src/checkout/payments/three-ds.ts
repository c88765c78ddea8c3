/**
 * The browser's 3-D Secure results, uploaded to the gateway: the 3DS Method result (from the
 * widget), the CRes of a 3DS 2 challenge and the PaRes of 3DS 1.0.2 (both posted by the ACS to
 * our return page). Each step is claimed on the order with compare-and-set before the upload, so
 * a double submit or a replayed post uploads nothing twice; a failed upload gives the claim back
 * so the browser may retry.
 */
import type { BrowserInfo } from '../../../../widget/src/api-types.js';
import type { Order } from '../../store/index.js';
import { type Context, inScope, notifyOrder } from '../context.js';
import { HttpError } from '../errors.js';
import { challengeKey, readFlow, WAIT, writeFlow } from './flow-state.js';
import type { BrowserRequestFacts } from './pay.js';

export async function submitMethodResult(
  ctx: Context,
  order: Order,
  threeDSCompInd: 'Y' | 'N' | 'U',
  browser: BrowserInfo,
  facts: BrowserRequestFacts,
): Promise<Order> {
  const flow = readFlow(order);
  if (order.threeDsCompInd !== null) {
    throw new HttpError(
      409,
      'conflict',
      'The 3DS Method result was already reported for this order',
    );
  }
  if (flow.next.action !== 'method' || !order.threeDsServerTransId || !order.gatewayOrderId) {
    throw new HttpError(409, 'conflict', 'This order is not waiting for a 3DS Method result');
  }
  const claim = await ctx.store.orders.update(order.id, {
    version: order.version,
    patch: { threeDsCompInd: threeDSCompInd, nextAction: writeFlow({ ...flow, next: WAIT }) },
  });
  if (!claim.won || !claim.order) {
    throw new HttpError(
      409,
      'conflict',
      'The 3DS Method result was already reported for this order',
    );
  }
  try {
    await inScope(ctx, { orderId: order.id }, () =>
      ctx.gateway.uploadMethodUrlResult({
        orderid: order.gatewayOrderId as string,
        'client-order-id': order.clientOrderId,
        threeDSServerTransID: order.threeDsServerTransId as string,
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
      }),
    );
  } catch (error) {
    await ctx.store.orders.update(order.id, {
      version: claim.order.version,
      patch: { threeDsCompInd: null, nextAction: writeFlow(flow) },
    });
    throw error;
  }
  notifyOrder(ctx, order.id);
  return claim.order;
}

export type ChallengeAnswer =
  | { kind: 'cres'; cres: string }
  | { kind: 'pares'; paRes: string; md: string | undefined };

export type AnswerOutcome = 'uploaded' | 'replay' | 'not-expected';

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
  const base = { orderid: order.gatewayOrderId, 'client-order-id': order.clientOrderId };
  try {
    await inScope(ctx, { orderId: order.id }, () =>
      answer.kind === 'cres'
        ? ctx.gateway.uploadCresResult({ ...base, cres: answer.cres })
        : ctx.gateway.uploadParesResult({
            ...base,
            paRes: answer.paRes,
            ...(answer.md ? { md: answer.md } : {}),
          }),
    );
  } catch (error) {
    await ctx.store.orders.update(order.id, {
      version: claim.order.version,
      patch: { nextAction: writeFlow(flow) },
    });
    throw error;
  }
  notifyOrder(ctx, order.id);
  return 'uploaded';
}
