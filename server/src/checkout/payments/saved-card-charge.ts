/**
 * A card the session offers, paid by the shopper in person with its security code: the gateway's
 * make-rebill on its card reference, with `cvv2` (sent to the gateway and nowhere else), the
 * shopper's IP, the browser's 3DS fields, and `redirect_url` for 3-D Secure to bring the shopper
 * back to. The handle counts in its own session only (another session's, a made-up one or a card
 * not offered are one refusal, before anything is claimed or sent), and an expired card is
 * refused before anything is sent. The attempt keeps the customer it pays for (the session's,
 * the groups the card's first payment gave, what the shopper typed); the family's make-rebill
 * takes no customer fields (docs/gateway.md#request-fields), so the gateway is sent none.
 */
import type { SavedCardPayRequest } from '../../../../contract/api-types.js';
import { fromMinorUnits } from '../../signing/index.js';
import type { CheckoutSession } from '../../store/index.js';
import type { Context } from '../context.js';
import { customerForPayment } from '../customer/shopper.js';
import { badRequest, conflict, HttpError } from '../errors.js';
import { cardDetails, isExpired } from '../saved-cards/card-details.js';
import type { BrowserRequestFacts } from './browser-facts.js';
import { cardFromGateway } from './card.js';
import { type Accepted, browserFields, type Charge } from './pay.js';
import { callbackUrl, returnUrlOf } from './urls.js';

export async function savedCardCharge(
  ctx: Context,
  session: CheckoutSession,
  request: Accepted<SavedCardPayRequest>,
  facts: BrowserRequestFacts,
): Promise<Charge> {
  const offer = await ctx.store.sessionCards.byHandle(session.id, request.savedCard);
  if (!offer) {
    throw new HttpError(
      400,
      'saved-card-unknown',
      'savedCard: this checkout session offers no such card',
      'savedCard',
    );
  }
  if (session.savedCardCvc === 'required' && request.cvc === undefined) {
    throw badRequest('cvc', 'cvc: is required to pay with a saved card in this checkout session');
  }
  // Sessions offer saved cards only for a sale (merchant-api/schemas.ts): a rebill is a charge.
  if (session.intent !== 'sale') throw conflict('A saved card pays a sale only');
  // The groups the card's first payment gave come from it; the shopper typed only the rest.
  const customer = customerForPayment(session, request.shopper, offer.keptCustomer);
  const ref = offer.cardRef;
  const details = await cardDetails(ctx, ref.id);
  if (isExpired(details)) {
    throw new HttpError(
      409,
      'saved-card-expired',
      'This saved card has expired; pay with another card',
      'savedCard',
    );
  }
  const card = cardFromGateway({
    type: details.brand ?? ref.brand,
    lastFour: details.last4 ?? ref.last4,
  });
  return {
    order: {
      cardBrand: card?.brand ?? ref.brand,
      cardLast4: card?.last4 ?? null,
      cardMasked: card?.masked ?? null,
      savedCardRef: ref.id,
      customer,
    },
    challengeWindowSize: request.browser.challengeWindowSize,
    followAtOnce: true,
    send(s: CheckoutSession, order) {
      return ctx.gateway.makeRebill({
        client_orderid: order.clientOrderId,
        cardrefid: ref.id,
        amount: fromMinorUnits(s.amountMinor, s.currency),
        currency: s.currency,
        order_desc: s.description,
        ipaddress: facts.ip,
        ...(request.cvc === undefined ? {} : { cvv2: request.cvc }),
        redirect_url: returnUrlOf(ctx, order),
        server_callback_url: callbackUrl(ctx),
        extra: browserFields(request.browser, facts),
      });
    },
  };
}
