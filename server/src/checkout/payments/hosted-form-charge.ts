/**
 * The gateway's hosted form, a third kind of Charge: one sale-form or preauth-form per the
 * session's intent, whose answer is the address of the gateway's page that takes the card (its
 * first step: pay.ts follows the form's answer like a sale's page, and asks no status at once).
 * The attempt keeps no card: there is no box to tick either, so the card is kept only where the
 * session saves always.
 */
import type { CheckoutSession, JsonObject } from '../../store/index.js';
import type { Context } from '../context.js';
import type { BrowserRequestFacts } from './browser-facts.js';
import { orderFields } from './order-fields.js';
import type { Charge } from './pay.js';

export function hostedFormCharge(
  ctx: Context,
  session: CheckoutSession,
  facts: BrowserRequestFacts,
  customer: JsonObject,
): Charge {
  return {
    // The customer the attempt carries (customer/shopper.ts): the form's fields are its.
    order: { saveCard: session.saveCard === 'always', customer },
    followAtOnce: false,
    send(s, order) {
      const request = { email: '', ...orderFields(ctx, s, order), ipaddress: facts.ip };
      return s.intent === 'preauth'
        ? ctx.gateway.preauthForm(request)
        : ctx.gateway.saleForm(request);
    },
  };
}
