/**
 * What the merchant sees of a payment link (the API's answers and the `payment_link.*` events):
 * its URL, its state and its payments, money as decimal strings. The QR code of the URL (SVG) is
 * added to the API's answers only: events and list pages stay small.
 */
import QRCode from 'qrcode';
import { fromMinorUnits } from '../../signing/index.js';
import { type PaymentLink, type PaymentLinkVisit, paymentCap } from '../../store/index.js';
import type { Context } from '../context.js';
import { paymentLinkUrl } from './url.js';

/** The merchant's order id of a visit: each visit is an order of its own. */
export function visitOrderId(link: Pick<PaymentLink, 'orderIdPrefix'>, n: number): string {
  return `${link.orderIdPrefix}-${n}`;
}

export async function paymentLinkView(
  ctx: Context,
  link: PaymentLink,
  paid: readonly PaymentLinkVisit[],
) {
  const cap = paymentCap(link);
  return {
    id: link.id,
    url: paymentLinkUrl(ctx.config.publicUrl, link.id),
    livemode: !ctx.config.testMode,
    state: link.state,
    amount: fromMinorUnits(link.amountMinor, link.currency),
    currency: link.currency,
    intent: link.intent,
    description: link.description,
    orderIdPrefix: link.orderIdPrefix,
    customer: link.customer,
    collect: link.collect,
    countryHint: link.countryHint,
    locale: link.locale,
    returnUrl: link.returnUrl,
    metadata: link.metadata,
    reusable: link.reusable,
    maxPayments: Number.isFinite(cap) ? cap : null,
    paymentCount: link.payments,
    payments: paid.map((visit) => ({
      orderId: visitOrderId(link, visit.n),
      sessionId: visit.sessionId,
      createdAt: visit.createdAt.toISOString(),
    })),
    expiresAt: link.expiresAt.toISOString(),
    createdAt: link.createdAt.toISOString(),
    updatedAt: link.updatedAt.toISOString(),
  };
}

/** The link's URL as a QR code, an SVG document (for a phone, a counter, a printed invoice). */
export function qrCodeOf(ctx: Context, link: PaymentLink): Promise<string> {
  return QRCode.toString(paymentLinkUrl(ctx.config.publicUrl, link.id), {
    type: 'svg',
    errorCorrectionLevel: 'M',
    margin: 2,
  });
}
