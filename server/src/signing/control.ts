/**
 * The `control` value (signing scheme A): SHA-1, lowercase hex, over the operation's inputs
 * concatenated with no separator, then the merchant control key. The inputs of each operation
 * are data, below; `amount` enters in cents, the decimal × 100 for every currency (amount.ts).
 */
import { createHash } from 'node:crypto';
import { toControlCents } from './amount.js';
import { constantTimeEqual } from './compare.js';
import { SigningError } from './errors.js';

/** The values a control formula can name. `endpointId` is the path value (endpoint or group). */
export interface ControlValues {
  endpointId?: string | undefined;
  login?: string | undefined;
  client_orderid?: string | undefined;
  orderid?: string | undefined;
  /** Decimal string in major units, as sent on the wire; enters the control × 100. */
  amount?: string | undefined;
  currency?: string | undefined;
  email?: string | undefined;
  cardrefid?: string | undefined;
  status?: string | undefined;
}

type InputName = keyof ControlValues;

/** How an input is treated when its value is absent. */
type WhenAbsent = 'refuse' | 'empty' | 'skip';

interface ControlInput {
  name: InputName;
  whenAbsent: WhenAbsent;
}

const required = (name: InputName): ControlInput => ({ name, whenAbsent: 'refuse' });
/** Status: `orderid` is an empty string when not sent (spec, scheme A rule 4). */
const emptyWhenAbsent = (name: InputName): ControlInput => ({ name, whenAbsent: 'empty' });
/** Capture and return: amount and currency enter only for a partial operation. */
const onlyWhenSent = (name: InputName): ControlInput => ({ name, whenAbsent: 'skip' });

const PAYMENT = [
  required('endpointId'),
  required('client_orderid'),
  required('amount'),
  required('email'),
];
const BY_ORDER = [required('login'), required('client_orderid'), required('orderid')];
const PARTIAL_AMOUNT = [...BY_ORDER, onlyWhenSent('amount'), onlyWhenSent('currency')];

/**
 * Each operation's control inputs, in order: the spec's tables, completed by the gateway family's
 * documented formulas where the spec is silent (docs/gateway.md#control-values).
 */
export const CONTROL_INPUTS = {
  sale: PAYMENT,
  'sale-form': PAYMENT,
  preauth: PAYMENT,
  'preauth-form': PAYMENT,
  'account-verification': [required('endpointId'), required('client_orderid'), required('email')],
  'account-verification-form': [
    required('endpointId'),
    required('client_orderid'),
    required('email'),
  ],
  capture: PARTIAL_AMOUNT,
  return: PARTIAL_AMOUNT,
  void: BY_ORDER,
  status: [required('login'), required('client_orderid'), emptyWhenAbsent('orderid')],
  'create-card-ref': BY_ORDER,
  'get-card-info': [required('login'), required('cardrefid')],
  'make-rebill': [
    required('login'),
    required('client_orderid'),
    required('cardrefid'),
    required('amount'),
    required('currency'),
  ],
  'upload-method-url-result': BY_ORDER,
  'upload-cres-result': BY_ORDER,
  'upload-pares-result': BY_ORDER,
  /** Incoming: the final redirect to `redirect_url` and the `server_callback_url` callback. */
  'final-notification': [required('status'), required('orderid'), required('client_orderid')],
} as const satisfies Record<string, readonly ControlInput[]>;

export type ControlOperation = keyof typeof CONTROL_INPUTS;

/** Whether the operation's control names `login`, so the request must carry it. */
export function controlNeedsLogin(operation: ControlOperation): boolean {
  const inputs: readonly ControlInput[] = CONTROL_INPUTS[operation];
  return inputs.some((input) => input.name === 'login');
}

/** The string that is hashed, without the control key (for tests and diagnostics). */
export function controlString(operation: ControlOperation, values: ControlValues): string {
  const parts: string[] = [];
  for (const input of CONTROL_INPUTS[operation]) {
    const value = values[input.name];
    if (value === undefined || value === '') {
      if (input.whenAbsent === 'refuse') {
        throw new SigningError(
          'missing-control-input',
          `${operation} control needs "${input.name}", which is empty or missing`,
        );
      }
      if (input.whenAbsent === 'skip') continue;
      parts.push('');
      continue;
    }
    parts.push(input.name === 'amount' ? toControlCents(value) : value);
  }
  return parts.join('');
}

export function computeControl(
  operation: ControlOperation,
  values: ControlValues,
  controlKey: string,
): string {
  return sha1Hex(controlString(operation, values) + controlKey);
}

/** Case-insensitive hex, compared in constant time. False (never a throw) for unusable values. */
export function verifyControl(
  operation: ControlOperation,
  values: ControlValues,
  controlKey: string,
  received: string | undefined,
): boolean {
  if (!received) return false;
  let expected: string;
  try {
    expected = computeControl(operation, values, controlKey);
  } catch {
    return false;
  }
  return constantTimeEqual(expected, received.toLowerCase());
}

export function sha1Hex(value: string): string {
  return createHash('sha1').update(value, 'utf8').digest('hex');
}
