/**
 * What a card does: a test card picks its scenario by PAN; any other Luhn-valid card follows the
 * gateway sandbox's CVV rules (docs/gateway.md#sandbox-cvv-rules).
 */
import type { Transaction } from './model.js';
import { findTestCard, SANDBOX_OTP } from './test-cards.js';

export type Outcome =
  | { kind: 'approve' }
  | { kind: 'decline'; code: string; message: string }
  | { kind: 'error'; code: string; message: string }
  | { kind: 'filtered'; code: string; message: string }
  | { kind: 'unknown-then-approve' }
  /** Stays `unknown` (CVV 217): the integration must cope with a transaction that never ends. */
  | { kind: 'unknown' }
  | {
      kind: '3ds2';
      method: 'notifies' | 'silent' | 'none';
      challenge: boolean;
      otp: string;
      /** The gateway refuses the challenge's CRes upload (400) and declines the transaction. */
      refusesCres?: boolean;
      /** Left unanswered, the challenge is approved after `lateApprovalMs` (sandbox option). */
      lateApproval?: boolean;
    }
  /** 3DS 1.0.2; `withoutMd`: the status carries no `md` (valid: the form posts an empty MD). */
  | { kind: '3ds1'; otp: string; withoutMd?: boolean }
  /**
   * Gateway-driven 3DS (the spec's `redirect_url`, the family's simplified mode): the sale and
   * status answers name only the gateway's own page, as `redirect_url` or as `html` (a form that
   * posts itself there). The shopper types the code on it; the gateway then ends the transaction,
   * sends the shopper back to the merchant's `redirect_url` (the final redirect) and delivers the
   * callback. `issuer`: what follows a right code.
   */
  | {
      kind: 'gateway-3ds';
      via: 'redirect-url' | 'html';
      otp: string;
      issuer: 'approve' | 'decline';
    };

export interface Scenario {
  name: string;
  outcome: Outcome;
}

const DECLINE_DO_NOT_HONOUR = { code: '05', message: 'Do not honour' };

const BY_TEST_CARD: Record<string, Outcome> = {
  approved: { kind: 'approve' },
  declined: { kind: 'decline', ...DECLINE_DO_NOT_HONOUR },
  'insufficient-funds': { kind: 'decline', code: '51', message: 'Insufficient funds' },
  '3ds2-frictionless': { kind: '3ds2', method: 'notifies', challenge: false, otp: SANDBOX_OTP },
  '3ds2-challenge': { kind: '3ds2', method: 'notifies', challenge: true, otp: SANDBOX_OTP },
  '3ds2-challenge-no-method': { kind: '3ds2', method: 'none', challenge: true, otp: SANDBOX_OTP },
  '3ds2-cres-refused': {
    kind: '3ds2',
    method: 'none',
    challenge: true,
    otp: SANDBOX_OTP,
    refusesCres: true,
  },
  '3ds2-challenge-late-approval': {
    kind: '3ds2',
    method: 'none',
    challenge: true,
    otp: SANDBOX_OTP,
    lateApproval: true,
  },
  '3ds2-method-timeout': { kind: '3ds2', method: 'silent', challenge: false, otp: SANDBOX_OTP },
  '3ds1': { kind: '3ds1', otp: SANDBOX_OTP },
  '3ds1-no-md': { kind: '3ds1', otp: SANDBOX_OTP, withoutMd: true },
  'gateway-3ds-redirect': {
    kind: 'gateway-3ds',
    via: 'redirect-url',
    otp: SANDBOX_OTP,
    issuer: 'approve',
  },
  'gateway-3ds-redirect-declined': {
    kind: 'gateway-3ds',
    via: 'redirect-url',
    otp: SANDBOX_OTP,
    issuer: 'decline',
  },
  'gateway-3ds-html': { kind: 'gateway-3ds', via: 'html', otp: SANDBOX_OTP, issuer: 'approve' },
  error: { kind: 'error', code: '96', message: 'Processor system malfunction' },
  filtered: { kind: 'filtered', code: '8881', message: 'Refused by the fraud filter' },
  'unknown-then-approved': { kind: 'unknown-then-approve' },
  // Its sale goes through; its reference, charged with the shopper present, asks for 3DS.
  'saved-card-challenge': { kind: 'approve' },
};

/**
 * What a card reference's scenario becomes when the shopper is there to pay with it (make-rebill
 * with `cvv2`): the scenario of that charge. Only these references ask for 3-D Secure then.
 */
const PRESENT_REBILL: Record<string, string> = {
  'saved-card-challenge': '3ds2-challenge-no-method',
};

/** The gateway sandbox's CVV rules, for Luhn-valid cards outside the table. */
const BY_CVV: Record<string, Scenario> = {
  '123': { name: 'cvv-approved', outcome: { kind: 'approve' } },
  '1234': { name: 'cvv-approved', outcome: { kind: 'approve' } },
  '111': { name: 'cvv-approved-without-3ds', outcome: { kind: 'approve' } },
  // "3DS gates show the 3DS form, password `hint`".
  '321': {
    name: 'cvv-3ds',
    outcome: { kind: '3ds2', method: 'none', challenge: true, otp: 'hint' },
  },
  '217': { name: 'cvv-unknown', outcome: { kind: 'unknown' } },
  '101': {
    name: 'cvv-declined-expired',
    outcome: { kind: 'decline', code: '54', message: 'Expired card' },
  },
  '116': {
    name: 'cvv-declined-insufficient-funds',
    outcome: { kind: 'decline', code: '51', message: 'Insufficient funds' },
  },
  '119': {
    name: 'cvv-declined-not-permitted',
    outcome: { kind: 'decline', code: '57', message: 'Transaction not permitted to cardholder' },
  },
  '209': {
    name: 'cvv-declined-pick-up',
    outcome: { kind: 'decline', code: '43', message: 'Pick up card (stolen card)' },
  },
};

/** What a card outside the test-card table does with a CVV the rules do not name. */
const CVV_DECLINED: Scenario = {
  name: 'cvv-declined',
  outcome: { kind: 'decline', ...DECLINE_DO_NOT_HONOUR },
};

/**
 * A rebill's scenario, and whether it may run 3-D Secure. Without `cvv2` the cardholder is absent:
 * the reference's own scenario, never 3DS (Processor.outcome). With it the shopper is paying, and
 * the security code is checked by the sandbox's CVV rules first, whatever card the reference
 * keeps: a code they decline (or leave `unknown`) decides the charge, `321` asks for a challenge
 * (code `hint`), and a code they approve leaves it to the reference (PRESENT_REBILL).
 */
export function rebillScenario(
  refScenario: string,
  cvv2: string | undefined,
): { scenario: string; threeDs: boolean } {
  if (cvv2 === undefined) return { scenario: refScenario, threeDs: false };
  const byCvv = BY_CVV[cvv2] ?? CVV_DECLINED;
  if (byCvv.outcome.kind !== 'approve') return { scenario: byCvv.name, threeDs: true };
  const present = PRESENT_REBILL[refScenario];
  return present ? { scenario: present, threeDs: true } : { scenario: refScenario, threeDs: false };
}

export function scenarioFor(pan: string, cvv: string | undefined): Scenario {
  const card = findTestCard(pan);
  if (card) return { name: card.scenario, outcome: outcomeOf(card.scenario) };
  const byCvv = cvv === undefined ? undefined : BY_CVV[cvv];
  return byCvv ?? CVV_DECLINED;
}

export function outcomeOf(name: string): Outcome {
  const known = BY_TEST_CARD[name];
  if (known) return known;
  for (const scenario of Object.values(BY_CVV)) {
    if (scenario.name === name) return scenario.outcome;
  }
  return { kind: 'decline', ...DECLINE_DO_NOT_HONOUR };
}

/** Without the shopper (rebill, recurring, payout to a card): 3DS does not apply. */
export function merchantInitiatedOutcome(name: string): Outcome {
  const outcome = outcomeOf(name);
  if (outcome.kind === '3ds2' || outcome.kind === '3ds1' || outcome.kind === 'gateway-3ds') {
    return { kind: 'approve' };
  }
  if (outcome.kind === 'unknown-then-approve') return { kind: 'approve' };
  return outcome;
}

/** A payout to a test card follows its scenario; any other valid card can receive. */
export function payoutScenario(pan: string): string {
  return findTestCard(pan)?.scenario ?? 'approved';
}

/** The one-time code the card's 3DS asks for; empty (matches nothing typed) without 3DS. */
export function expectedOtp(tx: Transaction): string {
  const outcome = outcomeOf(tx.scenario);
  return outcome.kind === '3ds2' || outcome.kind === '3ds1' || outcome.kind === 'gateway-3ds'
    ? outcome.otp
    : '';
}
