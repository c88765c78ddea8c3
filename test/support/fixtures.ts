/**
 * The browser fields and the customer every scripted shopper uses. No imports of running code, so
 * the benchmark's client process can use them without loading the servers.
 */
import type { BrowserInfo } from '../../contract/api-types.js';

export const BROWSER: BrowserInfo = {
  colorDepth: 24,
  javaEnabled: false,
  javascriptEnabled: true,
  language: 'en-GB',
  screenHeight: 900,
  screenWidth: 1440,
  timezoneOffset: -60,
  challengeWindowSize: '03',
};

/** The sandbox's approved card as `POST /widget/pay` takes it (scripts that build the body by hand). */
export const APPROVED_CARD_INPUT = {
  number: '4000000000000002',
  expMonth: '12',
  expYear: '2030',
  cvc: '123',
  holder: 'John Smith',
};

/**
 * The body of `POST /widget/pay` as a script builds it by hand: the card number given (the
 * approved card's by default) with the rest of APPROVED_CARD_INPUT, and BROWSER. `card` changes a
 * field (a holder, a CVC).
 */
export function payBody(
  number: string = APPROVED_CARD_INPUT.number,
  card: Partial<typeof APPROVED_CARD_INPUT> = {},
) {
  return { card: { ...APPROVED_CARD_INPUT, number, ...card }, browser: BROWSER };
}

export const CUSTOMER = {
  email: 'john.smith@example.com',
  firstName: 'John',
  lastName: 'Smith',
  address1: '1 Main Street',
  city: 'London',
  zipCode: 'N1 9GU',
  country: 'GB',
  phone: '+441234567890',
};
