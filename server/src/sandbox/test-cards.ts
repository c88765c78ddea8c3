/**
 * The sandbox's test cards: one row per scenario, served at `GET /sandbox/test-cards`. Every PAN
 * is Luhn-valid. Cards outside this table follow the gateway sandbox's CVV rules (scenarios.ts).
 */

export type ScenarioName =
  | 'approved'
  | 'declined'
  | 'insufficient-funds'
  | '3ds2-frictionless'
  | '3ds2-challenge'
  | '3ds2-challenge-no-method'
  | '3ds2-challenge-late-approval'
  | '3ds2-cres-refused'
  | '3ds2-method-timeout'
  | '3ds1'
  | '3ds1-no-md'
  | 'gateway-3ds-redirect'
  | 'gateway-3ds-redirect-declined'
  | 'gateway-3ds-html'
  | 'error'
  | 'filtered'
  | 'unknown-then-approved'
  | 'saved-card-challenge';

export interface TestCard {
  scenario: ScenarioName;
  pan: string;
  cvv: string;
  expMonth: string;
  expYear: string;
  /** The one-time code of the challenge, where there is one. */
  otp: string | null;
  description: string;
}

const EXP_MONTH = '12';
const EXP_YEAR = '2030';
/** The one-time code every sandbox challenge accepts. */
export const SANDBOX_OTP = '1234';

export const TEST_CARDS: readonly TestCard[] = [
  {
    scenario: 'approved',
    pan: '4000000000000002',
    cvv: '123',
    expMonth: EXP_MONTH,
    expYear: EXP_YEAR,
    otp: null,
    description: 'Approved without 3-D Secure.',
  },
  {
    scenario: 'declined',
    pan: '4000000000000010',
    cvv: '123',
    expMonth: EXP_MONTH,
    expYear: EXP_YEAR,
    otp: null,
    description: 'Declined by the issuer (error-code 05, "Do not honour").',
  },
  {
    scenario: 'insufficient-funds',
    pan: '4000000000000028',
    cvv: '123',
    expMonth: EXP_MONTH,
    expYear: EXP_YEAR,
    otp: null,
    description: 'Declined: insufficient funds (error-code 51).',
  },
  {
    scenario: '3ds2-frictionless',
    pan: '4000000000000036',
    cvv: '123',
    expMonth: EXP_MONTH,
    expYear: EXP_YEAR,
    otp: null,
    description: '3DS 2: the 3DS Method runs and notifies; upload Y; approved without a challenge.',
  },
  {
    scenario: '3ds2-challenge',
    pan: '4000000000000044',
    cvv: '123',
    expMonth: EXP_MONTH,
    expYear: EXP_YEAR,
    otp: SANDBOX_OTP,
    description:
      '3DS 2: 3DS Method, then a challenge; the right code approves, a wrong one or Cancel declines.',
  },
  {
    scenario: '3ds2-challenge-no-method',
    pan: '4000000000000051',
    cvv: '123',
    expMonth: EXP_MONTH,
    expYear: EXP_YEAR,
    otp: SANDBOX_OTP,
    description: '3DS 2 without a method URL: upload threeDSCompInd U, then a challenge.',
  },
  {
    scenario: '3ds2-method-timeout',
    pan: '4000000000000069',
    cvv: '123',
    expMonth: EXP_MONTH,
    expYear: EXP_YEAR,
    otp: null,
    description:
      '3DS 2: the 3DS Method page never notifies; upload N after 10 s; approved frictionless.',
  },
  {
    scenario: '3ds1',
    pan: '4000000000000077',
    cvv: '123',
    expMonth: EXP_MONTH,
    expYear: EXP_YEAR,
    otp: SANDBOX_OTP,
    description: '3DS 1.0.2: acs-url + pareq + md; the ACS posts PaRes + MD to TermUrl; upload it.',
  },
  {
    scenario: 'error',
    pan: '4000000000000085',
    cvv: '123',
    expMonth: EXP_MONTH,
    expYear: EXP_YEAR,
    otp: null,
    description: 'Ends in status error (processor failure, error-code 96).',
  },
  {
    scenario: 'filtered',
    pan: '4000000000000093',
    cvv: '123',
    expMonth: EXP_MONTH,
    expYear: EXP_YEAR,
    otp: null,
    description: 'Ends in status filtered (refused by the fraud filter).',
  },
  {
    scenario: 'unknown-then-approved',
    pan: '4000000000000101',
    cvv: '123',
    expMonth: EXP_MONTH,
    expYear: EXP_YEAR,
    otp: null,
    description: 'Reports status unknown for a while (about 3 processing delays), then approved.',
  },
  {
    scenario: '3ds1-no-md',
    pan: '4000000000000119',
    cvv: '123',
    expMonth: EXP_MONTH,
    expYear: EXP_YEAR,
    otp: SANDBOX_OTP,
    description:
      '3DS 1.0.2 whose status carries no md: the form posts an empty MD; the PaRes is uploaded.',
  },
  {
    scenario: '3ds2-cres-refused',
    pan: '4000000000000150',
    cvv: '123',
    expMonth: EXP_MONTH,
    expYear: EXP_YEAR,
    otp: SANDBOX_OTP,
    description:
      'No method URL (upload U), challenge; the gateway refuses the CRes upload (400) and declines (3DS-FAILED).',
  },
  {
    scenario: 'gateway-3ds-redirect',
    pan: '4000000000000127',
    cvv: '123',
    expMonth: EXP_MONTH,
    expYear: EXP_YEAR,
    otp: SANDBOX_OTP,
    description:
      "Gateway-driven 3DS: sale and status carry only redirect_url, the gateway's own code page; it ends with the final redirect; approved.",
  },
  {
    scenario: 'gateway-3ds-redirect-declined',
    pan: '4000000000000135',
    cvv: '123',
    expMonth: EXP_MONTH,
    expYear: EXP_YEAR,
    otp: SANDBOX_OTP,
    description: 'As gateway-3ds-redirect, but the issuer declines after the code (error-code 05).',
  },
  {
    scenario: 'gateway-3ds-html',
    pan: '4000000000000143',
    cvv: '123',
    expMonth: EXP_MONTH,
    expYear: EXP_YEAR,
    otp: SANDBOX_OTP,
    description:
      "Gateway-driven 3DS: sale and status carry only html, a form that posts itself to the gateway's code page; final redirect; approved.",
  },
  {
    scenario: '3ds2-challenge-late-approval',
    pan: '4000000000000168',
    cvv: '123',
    expMonth: EXP_MONTH,
    expYear: EXP_YEAR,
    otp: SANDBOX_OTP,
    description:
      'No method URL (upload U), challenge; left unanswered, the bank approves it about 20 s later (as if confirmed in another tab): leave it, pay with another card, and the late approval is reversed.',
  },
  {
    scenario: 'saved-card-challenge',
    pan: '4000000000000176',
    cvv: '123',
    expMonth: EXP_MONTH,
    expYear: EXP_YEAR,
    otp: SANDBOX_OTP,
    description:
      'Approved without 3-D Secure; saved, its card reference paid with its security code (make-rebill with cvv2) asks for a 3DS 2 challenge: no method URL (upload U), then the code.',
  },
];

export function findTestCard(pan: string): TestCard | undefined {
  return TEST_CARDS.find((card) => card.pan === pan);
}
