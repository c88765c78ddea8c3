/**
 * What a shopper does on the demo shop, found by accessible role and name as a person finds them.
 */
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { scaled } from '../../support/time-scale.js';

export interface TestCard {
  scenario: string;
  pan: string;
  cvv: string;
  expMonth: string;
  expYear: string;
  otp: string | null;
}

/** The shopper a merchant's server names when it creates a checkout session for these pages. */
export const SHOPPER = {
  email: 'jo@example.com',
  firstName: 'Jo',
  lastName: 'Smith',
  address1: '1 Main St',
  city: 'London',
  zipCode: 'N1 9GU',
  country: 'GB',
  phone: '+441234567890',
};

export interface CheckoutChoice {
  amount?: string;
  currency?: string;
  intent?: 'Sale' | 'Preauth (capture later)';
  mode?: 'Card form' | 'Hosted form';
  challenge?: 'Auto' | 'In a frame' | 'By redirect';
  /** The demo's "what the shop knows about the shopper" (default: everything). */
  knows?: 'Everything' | 'E-mail only' | 'Nothing (the checkout asks)';
}

export async function testCards(sandboxUrl: string): Promise<Map<string, TestCard>> {
  const cards = (await (await fetch(`${sandboxUrl}/sandbox/test-cards`)).json()) as TestCard[];
  return new Map(cards.map((card) => [card.scenario, card]));
}

export async function openCheckout(page: Page, shopUrl: string, choice: CheckoutChoice = {}) {
  await page.goto(shopUrl);
  if (choice.amount)
    await page.getByRole('textbox', { name: 'Amount', exact: true }).fill(choice.amount);
  if (choice.currency)
    await page
      .getByRole('combobox', { name: 'Currency', exact: true })
      .selectOption(choice.currency);
  if (choice.intent) await page.getByRole('radio', { name: choice.intent }).check();
  if (choice.mode) await page.getByRole('radio', { name: choice.mode }).check();
  if (choice.knows) await page.getByRole('radio', { name: choice.knows }).check();
  if (choice.challenge)
    await page
      .getByRole('combobox', { name: 'Challenge', exact: true })
      .selectOption({ label: choice.challenge });
  await page.getByRole('button', { name: 'Go to payment' }).click();
  await payButton(page).waitFor();
}

/**
 * Types the card into the widget's fields, key by key, as a shopper would. Each field is clicked
 * first: a click waits until the field is enabled (the form is disabled while its session loads).
 */
export async function typeCard(page: Page, card: TestCard): Promise<void> {
  for (const [label, value] of cardFields(card, `${card.expMonth}${card.expYear.slice(-2)}`)) {
    const field = page.getByLabel(label);
    await field.click();
    await field.pressSequentially(value);
  }
}

/**
 * Fills the card as the browser's autofill does: each field at once, one `input` event with the
 * whole value, the expiry as `MM/YYYY`. The card matrices pay this way, as their subject is what
 * follows the Pay click, and typing key by key (typeCard, kept for the journeys) costs Chromium a
 * round of input events and rendering per key. `fill` waits until a field is enabled, as the
 * click does there.
 */
export async function autofillCard(page: Page, card: TestCard): Promise<void> {
  for (const [label, value] of cardFields(card, `${card.expMonth}/${card.expYear}`)) {
    await page.getByLabel(label).fill(value);
  }
}

/** The widget's four fields, by label, with what a shopper puts in each. */
function cardFields(card: TestCard, expiry: string): [string, string][] {
  return [
    ['Card number', card.pan],
    ['Expiry date', expiry],
    ['Security code', card.cvv],
    ['Name on card', 'Alex Shopper'],
  ];
}

/** The order id the shop shows (“Order demo-…”). */
export async function shownOrderId(page: Page): Promise<string> {
  return ((await page.locator('#pay-hint').textContent()) ?? '').replace('Order ', '').trim();
}

/** The widget's Pay button, whose name carries the amount (“Pay €10.42”). */
export function payButton(page: Page): Locator {
  return page.locator('pay-checkout').getByRole('button', { name: /^Pay\b/ });
}

/** The shop's result line (a polite live region), once it says something. */
export async function result(page: Page, timeout = scaled(30_000)): Promise<string> {
  const status = page.locator('#result');
  await status.filter({ hasText: /\S/ }).waitFor({ timeout });
  return (await status.textContent()) ?? '';
}

/** The widget events the shop logged, oldest first. */
export async function events(page: Page): Promise<string[]> {
  const items = await page
    .getByRole('list', { name: 'Widget events' })
    .getByRole('listitem')
    .allTextContents();
  return items.reverse();
}

/**
 * The bank's page in the challenge dialog: the dialog frames the backend's launcher page, which
 * posts the CReq (or PaReq) into a frame of its own.
 */
export function challengeFrame(page: Page) {
  return page.getByRole('dialog').frameLocator('iframe').frameLocator('iframe');
}

export async function answerChallenge(page: Page, code: string): Promise<void> {
  const frame = challengeFrame(page);
  await frame.getByLabel('One-time code').fill(code);
  await frame.getByRole('button', { name: 'Submit' }).click();
}

/**
 * The gateway's code page, wherever the widget opened it: in the dialog's frame, or the whole
 * page. Answers where it was found.
 */
export async function gatewayPage(
  page: Page,
): Promise<{ at: 'dialog' | 'page'; in: Page | FrameLocator }> {
  const framed = challengeFrame(page);
  return Promise.race([
    framed
      .getByLabel('One-time code')
      .waitFor()
      .then(() => ({ at: 'dialog' as const, in: framed })),
    page
      .getByLabel('One-time code')
      .waitFor()
      .then(() => ({ at: 'page' as const, in: page })),
  ]);
}
