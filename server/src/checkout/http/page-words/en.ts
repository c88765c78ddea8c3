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
};

export type PageWordKey = keyof typeof en;
export type PageWords = Record<PageWordKey, string>;
