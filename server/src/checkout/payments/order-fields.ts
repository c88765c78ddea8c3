/**
 * What a sale, a preauth or a hosted form says of the order, in the gateway's field names
 * (docs/gateway.md#request-fields): the attempt's id, the session's description, amount and
 * currency, where the shopper and the callbacks come back to, and the customer the attempt
 * carries (the session's, completed by what the shopper typed: customer/shopper.ts; the fields it
 * holds, the phone as the gateway takes it: customer/phone.ts).
 */
import { fromMinorUnits } from '../../signing/index.js';
import type { CheckoutSession, JsonObject, Order } from '../../store/index.js';
import type { Context } from '../context.js';
import { gatewayPhone } from '../customer/phone.js';
import { callbackUrl, returnUrlOf } from './urls.js';

const GATEWAY_NAMES = {
  firstName: 'first_name',
  lastName: 'last_name',
  address1: 'address1',
  city: 'city',
  state: 'state',
  zipCode: 'zip_code',
  country: 'country',
  phone: 'phone',
  email: 'email',
} as const;

type GatewayName = (typeof GATEWAY_NAMES)[keyof typeof GATEWAY_NAMES];

function customerFields(customer: JsonObject): Partial<Record<GatewayName, string>> {
  const fields: Partial<Record<GatewayName, string>> = {};
  for (const [ours, theirs] of Object.entries(GATEWAY_NAMES)) {
    const value = customer[ours];
    if (typeof value === 'string' && value)
      fields[theirs as GatewayName] = ours === 'phone' ? gatewayPhone(value) : value;
  }
  return fields;
}

export function orderFields(ctx: Context, session: CheckoutSession, order: Order) {
  return {
    client_orderid: order.clientOrderId,
    order_desc: session.description,
    amount: fromMinorUnits(session.amountMinor, session.currency),
    currency: session.currency,
    redirect_url: returnUrlOf(ctx, order),
    server_callback_url: callbackUrl(ctx),
    // An attempt from before attempts kept their customer carried the session's.
    ...customerFields(order.customer ?? session.customer),
  };
}
