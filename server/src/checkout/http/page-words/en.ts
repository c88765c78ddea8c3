/**
 * What the backend's own pages say to a shopper who sees them (the return page at the top level
 * without a way back, the launcher's titles), in English. Each language of the element has a file
 * beside this one with the same keys; index.ts picks one from the browser's Accept-Language.
 */
export const en = {
  /** The return page's title. */
  pageTitle: 'Payment',
  /** The launcher page's title and the title of the bank's frame inside it. */
  bankTitle: 'Your bank',
  'challenge.uploaded': 'Verification complete. Finishing the payment…',
  'challenge.unknown': 'Verification received. Finishing the payment…',
  'challenge.refused': 'The verification was not accepted. Checking the payment with the bank…',
  'challenge.replay': 'This verification was already received. Nothing was changed.',
  'challenge.not-expected': 'No verification was expected for this payment. Nothing was changed.',
  unverified: 'This notification could not be verified. Nothing was changed.',
  checking: 'Checking the payment with the bank. You can return to the shop.',
  finishedReturn: 'Payment finished. You can return to the shop.',
  methodDone: 'Verification step complete.',
  alreadyFinished: 'This payment is already finished.',
  alreadyFinishedUnchanged: 'This payment is already finished. Nothing was changed.',
  finished: 'Payment finished.',
  nothingToDo: 'Nothing to process here.',
  unknownPayment: 'Unknown payment. Nothing was changed.',
  failedChecking:
    'Something went wrong on our side. The payment is being checked; you can return to the shop.',
  failedUnchanged: 'Something went wrong on our side. Nothing was changed.',
  unreadable: 'This request could not be read. Nothing was changed.',
  // The launcher page opened after its step is over (launcher/page.ts): what it says, its link.
  stepOver: 'This step with your bank is over.',
  backToShop: 'Return to the shop',
  closePage: 'You can close this page.',
  /** The payment link page, once its visit was paid. */
  'link.thanks': 'Payment received. Thank you.',
  /** The payment link page of a one-off link another visit paid. */
  'link.paid': 'This link has already been paid.',
  /** The payment link page of a reusable link that took all its payments. */
  'link.closed': 'This link takes no more payments.',
  'link.expired': 'This payment link has expired.',
  'link.deactivated': 'This payment link is no longer available.',
  'link.failed': 'This payment did not go through.',
  'link.retry': 'Try again',
  'link.continue': 'Continue',
  /** The payment link page of no link (a guessed or mistyped address). */
  'link.notFound': 'There is no payment here.',
};

export type PageWordKey = keyof typeof en;
export type PageWords = Record<PageWordKey, string>;
