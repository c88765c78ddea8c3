/**
 * A card typed in the form, charged by one sale or preauth per the session's intent, with the
 * customer the attempt carries (the session's, completed by the shopper) and the browser's 3DS
 * fields. The attempt keeps the card's brand,
 * last four and masked number, and whether to save the card once paid: the shopper's box where
 * the session asks, always where it saves always.
 */
import type { BrowserInfo, CardInput } from '../../../../contract/api-types.js';
import type { SaleRequest } from '../../gateway/index.js';
import type { CheckoutSession, JsonObject, Order } from '../../store/index.js';
import type { Context } from '../context.js';
import { badRequest } from '../errors.js';
import type { BrowserRequestFacts } from './browser-facts.js';
import { summarizeCard } from './card.js';
import { orderFields } from './order-fields.js';
import { browserFields, type Charge } from './pay.js';

function saleRequest(
  ctx: Context,
  session: CheckoutSession,
  order: Order,
  card: CardInput,
  browser: Required<BrowserInfo>,
  facts: BrowserRequestFacts,
): SaleRequest {
  return {
    // Required by the family; every attempt carries them (the merchant's customer, completed by
    // what the shopper typed: customer/shopper.ts). Named here for the type; orderFields fills them.
    address1: '',
    city: '',
    zip_code: '',
    country: '',
    phone: '',
    email: '',
    ...orderFields(ctx, session, order),
    ipaddress: facts.ip,
    card_printed_name: card.holder,
    credit_card_number: card.number,
    expire_month: card.expMonth,
    expire_year: card.expYear,
    cvv2: card.cvc,
    extra: browserFields(browser, facts),
  } as SaleRequest;
}

/**
 * Whether the attempt's card is kept once paid. The box counts only where the session asks for
 * it; ticked where the session never saves, it is refused, so a shopper is never told a card is
 * kept when it is not.
 */
export function keepsCard(session: CheckoutSession, ticked: boolean | undefined): boolean {
  if (session.saveCard === 'never' && ticked === true) {
    throw badRequest('saveCard', 'saveCard: this checkout session does not save cards');
  }
  return session.saveCard === 'always' || (session.saveCard === 'ask' && ticked === true);
}

/**
 * `keep.customer`: the customer the attempt carries (customer/shopper.ts, customerForPayment),
 * kept with it and sent in the sale.
 */
export function cardCharge(
  ctx: Context,
  card: CardInput,
  browser: Required<BrowserInfo>,
  facts: BrowserRequestFacts,
  keep: { saveCard: boolean; customer: JsonObject },
): Charge {
  const summary = summarizeCard(card.number);
  return {
    order: {
      cardBrand: summary.brand,
      cardLast4: summary.last4,
      cardMasked: summary.masked,
      saveCard: keep.saveCard,
      customer: keep.customer,
    },
    challengeWindowSize: browser.challengeWindowSize,
    followAtOnce: true,
    send(session, order) {
      const request = saleRequest(ctx, session, order, card, browser, facts);
      return session.intent === 'preauth'
        ? ctx.gateway.preauth(request)
        : ctx.gateway.sale(request);
    },
  };
}
