/**
 * The element's words in English: the language built into the element (and its CDN file). Every
 * other language is a file of its own in locales/, with the same keys, loaded when a shopper
 * needs it. The keys are stable and public: a merchant overrides any of them (the `strings`
 * property). `{name}` marks a slot that t() fills; a translation or an override keeps every slot
 * of the English text (strings.ts checks). A string with a count says it in a plural block,
 * `{n, plural, one {# digit} other {# digits}}`, with the forms its language needs (fill.ts).
 */
export const en = {
  number: 'Card number',
  expiry: 'Expiry date',
  cvc: 'Security code',
  name: 'Name on card',
  expiryHint: 'MM/YY',
  cvcHint3: '3 digits on the back',
  cvcHint4: '4 digits on the front',
  pay: 'Pay {amount}',
  payPlain: 'Pay',
  paying: 'Processing…',
  hostedNote: 'You will continue on the secure payment page.',
  // The shopper's contact and billing address (shopper/): the parts, their fields, their errors.
  contact: 'Contact',
  billingAddress: 'Billing address',
  email: 'Email',
  phone: 'Phone',
  country: 'Country',
  address1: 'Address',
  city: 'City',
  zipCode: 'Postal code',
  state: 'State or province',
  'email.required': 'Enter your email.',
  'email.invalid': 'Enter an email such as name@example.com.',
  'phone.required': 'Enter your phone number.',
  'phone.invalid': 'This phone number is not valid.',
  'country.required': 'Choose your country.',
  'address1.required': 'Enter your street address.',
  'city.required': 'Enter your city.',
  'zipCode.required': 'Enter your postal code.',
  'zipCode.invalid': 'This postal code does not fit the country.',
  'state.required': 'Enter your state or province.',
  'state.invalid': 'Enter the two-letter code, such as CA.',
  'number.required': 'Enter the card number.',
  'number.invalid': 'This card number is not valid.',
  'expiry.required': 'Enter the expiry date.',
  'expiry.invalid': 'Enter the expiry date as MM/YY.',
  'expiry.past': 'This card has expired.',
  'cvc.required': 'Enter the security code.',
  'cvc.invalid': 'The security code has {n, plural, one {# digit} other {# digits}}.',
  'name.required': 'Enter the name as printed on the card.',
  'name.invalid': 'Enter the name as printed on the card.',
  fixErrors: 'Please correct: {fields}.',
  'step.paying': 'Sending the payment…',
  'step.method': 'Checking the card with your bank…',
  'step.challenge': 'Your bank asks you to confirm the payment.',
  'step.waiting': 'Waiting for the final answer…',
  'step.redirect': 'Taking you to your bank…',
  dialogTitle: 'Confirm the payment with your bank',
  dialogClose: 'Cancel verification',
  dialogFallback: 'Page not loading? Continue in this window',
  confirmCancel: 'Cancel the payment? Your bank may still be confirming it.',
  keepConfirming: 'Keep confirming',
  cancelPayment: 'Cancel payment',
  resumedDetail:
    'Your bank’s page was closed. If you confirmed the payment there, it completes in a moment.',
  approved: 'Payment approved',
  approvedDetail: '{amount} paid with {card}.',
  approvedPlain: '{amount} paid.',
  declined: 'Payment declined',
  declinedDetail: 'Your bank declined the payment.',
  attemptsExhausted:
    'This checkout cannot take another card. To pay, contact the shop or start the checkout again.',
  'decline.funds': 'There is not enough money on this card.',
  'decline.expired': 'Your bank says this card has expired.',
  'decline.not-permitted': 'This card cannot be used for this payment.',
  'decline.limit': 'This payment is over the card’s limit.',
  'decline.cvc': 'The security code is not correct.',
  'decline.try-later': 'Your bank could not be reached. Please try again in a few minutes.',
  cancelled: 'Payment cancelled',
  cancelledDetail: 'You cancelled the verification with your bank.',
  abandonedDetail: 'Your bank’s page was closed before the payment was confirmed.',
  again: 'You can pay again, with this card or another.',
  error: 'Payment failed',
  'error.network': 'We could not reach the payment service. Check your connection and try again.',
  'error.session-expired': 'This checkout has expired. Please reload the page.',
  'error.three-ds-timeout': 'The bank verification took too long.',
  'error.conflict': 'This checkout cannot take a payment now.',
  errorDetail: 'Something went wrong. Please try again.',
  tryAgain: 'Try again',
  testMode: 'Test mode',
  savedCards: 'Saved cards',
  useAnotherCard: 'Use another card',
  savedExpired: 'Expired',
  saveCard: 'Save this card for next time',
  // Time limits (time-limits.ts, three-ds/flow.ts): the session's warning, its button, why it
  // cannot be extended; the bank's limit in the challenge dialog.
  'time.session': 'This checkout closes at {time}.',
  'time.more': 'I need more time',
  'time.last': 'It cannot stay open longer.',
  'time.bank':
    'Your bank’s page closes at {time} and cannot be given more time; the payment then stops.',
};

/** A stable string key: what `strings` overrides and every language file translates. */
export type StringKey = keyof typeof en;

/** A whole language: every key, each with the slots of its English text. */
export type Strings = Record<StringKey, string>;
