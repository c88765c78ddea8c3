/**
 * What each gateway operation demands of a request before its own checks run, as data in one
 * place: how it spells the merchant's order id, the fields it cannot do without, and whether
 * its `{endpointId}` path slot also takes an endpoint group id. The operation router enforces
 * it (http/operation.ts): a missing field, or the order id in another spelling, is a 400
 * `validation-error` naming the field, and nothing changes.
 *
 * Sources, in order: the gateway's spec, then the gateway family where the spec is silent
 * (php-lib's `requestFieldsDefinition` "mandatory" rows; docs/gateway.md#request-fields).
 * docs/spec-conformance.md gives the reason for each reading.
 */

/** The two spellings of the merchant's order id the spec uses. */
export type OrderIdField = 'client_orderid' | 'client-order-id';

export interface FieldContract {
  /** The one spelling this operation takes; the other is refused, naming it. */
  orderId?: OrderIdField;
  /** Checked in this order; the first one absent or empty is named. */
  required: readonly string[];
  /**
   * The spec: `endpointId` "is also accepted as an endpoint group identifier, depending on the
   * operation". Those whose control formula names "ENDPOINTID or ENDPOINTGROUPID" (sale,
   * preauth, the forms: docs/gateway.md#control-values) take a group id in the endpoint slot too.
   */
  groupInEndpointSlot?: boolean;
}

const CARD = [
  'card_printed_name',
  'credit_card_number',
  'expire_month',
  'expire_year',
  'cvv2',
] as const;
/**
 * Sale and preauth: the family's required fields (php-lib SaleQuery, PreauthQuery;
 * docs/gateway.md#request-fields).
 */
const SALE = [
  'client_orderid',
  'order_desc',
  'amount',
  'currency',
  'address1',
  'city',
  'zip_code',
  'country',
  'phone',
  'email',
  'ipaddress',
  ...CARD,
  'redirect_url',
  'control',
] as const;
/**
 * The hosted forms collect the payer's data on the gateway's own page; what the merchant must
 * send is the order, the payer's e-mail (it is in the control) and IP, and where to return.
 */
const FORM = [
  'client_orderid',
  'order_desc',
  'amount',
  'currency',
  'email',
  'ipaddress',
  'redirect_url',
  'control',
] as const;
/** php-lib AccountVerificationQuery (phone optional there), plus the currency of the check. */
const VERIFICATION = [
  'client_orderid',
  'order_desc',
  'currency',
  'address1',
  'city',
  'zip_code',
  'country',
  'email',
  'ipaddress',
  ...CARD,
  'redirect_url',
  'control',
] as const;
/** capture, void, return, create-card-ref: the order by both ids (spec control inputs). */
const BY_ORDER = ['client_orderid', 'orderid', 'login', 'control'] as const;
/** The 3DS uploads: the spec names the merchant id `client-order-id` for them. */
const UPLOAD = ['client-order-id', 'orderid', 'login', 'control'] as const;

const v2 = (required: readonly string[], groupInEndpointSlot = false): FieldContract => ({
  orderId: 'client_orderid',
  required,
  ...(groupInEndpointSlot ? { groupInEndpointSlot } : {}),
});

/** Keyed by the operation's path under the base URL, without `/{endpointId}`. */
export const FIELD_CONTRACTS: Readonly<Record<string, FieldContract>> = {
  'api/3ds/v1/upload-method-url-result': {
    orderId: 'client-order-id',
    required: [...UPLOAD, 'threeDSServerTransID', 'threeDSCompInd'],
  },
  'api/3ds/v1/upload-cres-result': { orderId: 'client-order-id', required: [...UPLOAD, 'cres'] },
  'api/3ds/v1/upload-pares-result': {
    orderId: 'client-order-id',
    required: [...UPLOAD, 'paRes'],
  },
  'api/v2/sale': v2(SALE, true),
  'api/v2/preauth': v2(SALE, true),
  'api/v2/sale-form': v2(FORM, true),
  'api/v2/preauth-form': v2(FORM, true),
  'api/v2/payment-form': v2(FORM, true),
  'api/v2/account-verification': v2(VERIFICATION),
  'api/v2/account-verification-form': v2(
    ['client_orderid', 'order_desc', 'currency', 'email', 'ipaddress', 'redirect_url', 'control'],
    true,
  ),
  'api/v2/payout-form': v2(
    ['client_orderid', 'amount', 'currency', 'email', 'redirect_url', 'control'],
    true,
  ),
  'api/v2/capture': v2(BY_ORDER),
  'api/v2/void': v2(BY_ORDER),
  'api/v2/return': v2(BY_ORDER),
  // Scheme A rule 4: `orderid` may be absent (the control then has an empty string).
  'api/v2/status': v2(['client_orderid', 'login', 'control']),
  'api/v2/create-card-ref': v2(BY_ORDER),
  'api/v2/get-card-info': { required: ['cardrefid', 'login', 'control'] },
  // php-lib MakeRebillQuery: order_desc and ipaddress are mandatory too.
  'api/v2/make-rebill': v2([
    'client_orderid',
    'order_desc',
    'amount',
    'currency',
    'ipaddress',
    'cardrefid',
    'login',
    'control',
  ]),
  'api/v2/payout': v2(['client_orderid', 'amount', 'currency']),
  // The spec's pan-eligibility example spells it `client-order-id`, v2 path or not.
  'api/v2/pan-eligibility/send': {
    orderId: 'client-order-id',
    required: ['client-order-id', 'sending-card-ref-id'],
  },
  // "Same semantics" as v2 create-card-ref: the same field names.
  'api/v4/create-card-ref': { orderId: 'client_orderid', required: ['client_orderid', 'orderid'] },
  // The spec names only period, interval, amount and customer details; no merchant order id.
  'api/v4/create-recurring-payment': {
    required: ['card-ref-id', 'period', 'interval', 'amount', 'currency', 'email'],
  },
  // The spec's transfer example: `client_orderid`, `order_desc`, amount, currency.
  'api/v4/transfer': {
    orderId: 'client_orderid',
    required: ['client_orderid', 'amount', 'currency', 'order_desc'],
  },
  // The spec's transfer-by-ref and v4 payout examples: `client-order-id`.
  'api/v4/transfer-by-ref': {
    orderId: 'client-order-id',
    required: ['client-order-id', 'amount', 'currency', 'order_desc', 'destination-card-no'],
  },
  'api/v4/payout': {
    orderId: 'client-order-id',
    required: ['client-order-id', 'amount', 'currency', 'order_desc'],
  },
  // Spec silent: the first step of the v4 payout takes the v4 payout's fields.
  'api/v4/payout-check': {
    orderId: 'client-order-id',
    required: ['client-order-id', 'amount', 'currency', 'order_desc'],
  },
  // Spec silent ("not shown"): the payout registered by payout-check, by the same id.
  'api/v4/payout-pay': { orderId: 'client-order-id', required: ['client-order-id'] },
};

/** The contract of an operation path; every served path has one (checked at start-up). */
export function contractOf(path: string): FieldContract {
  const contract = FIELD_CONTRACTS[path];
  if (!contract) throw new Error(`sandbox: no field contract for ${path}`);
  return contract;
}

/** The spelling an operation does not take. */
export function otherSpelling(field: OrderIdField): OrderIdField {
  return field === 'client_orderid' ? 'client-order-id' : 'client_orderid';
}
