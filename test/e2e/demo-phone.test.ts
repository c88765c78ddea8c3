/**
 * The demo shop on a phone, and accessible (docs/accessibility.md): at 390 px (and 320 px) nothing
 * runs off the screen, the test-card table included; axe-core finds nothing on its pages, light,
 * dark and in forced colors (Windows contrast themes), which only this suite can emulate (the
 * widget's own tests run where forced colors cannot be emulated: test/widget/accessibility.test.ts);
 * in forced colors the element's buttons, badge, spinner, focus ring and 3-D Secure dialog keep
 * their edges; and a shopper pays by keyboard alone, every focus visible and never hidden.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { PHONE } from './support/browser.js';
import {
  challengeFrame,
  openCheckout,
  payButton,
  result,
  typeCard,
} from './support/checkout-page.js';
import { SHOPPERS_AT_ONCE, useStack } from './support/use-stack.js';

const harness = useStack();

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/**
 * axe's violations on what the page shows, every impact, one line each. Frames are left out:
 * the only ones are the bank's pages in the dialog (the sandbox's, not the product's).
 */
async function axeViolations(page: Page, tags?: string[]): Promise<string[]> {
  // By evaluation, not a script tag: the demo's CSP allows no inline script.
  await page.evaluate(`if (!window.axe) { ${AXE_SOURCE}\n }`);
  return page.evaluate(async (only) => {
    const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
    const res = await axe.run(document, {
      iframes: false,
      resultTypes: ['violations'],
      ...(only ? { runOnly: { type: 'tag' as const, values: only } } : {}),
    });
    return res.violations.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes.map((n) => `${JSON.stringify(n.target)} ${n.failureSummary}`).join('; ')}`,
    );
  }, tags);
}

/** WCAG 2.2 A and AA, without axe's best practices (for pages that are a frame or one line). */
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * What runs off the screen or scrolls sideways: the page, and every element of it and of the
 * element's shadow root, as "tag.class (left..right)". Empty when everything fits.
 */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width)
      found.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
    // Breadth first through the page and the shadow roots in it (no named function here: the
    // TypeScript loader would wrap it in a helper the page does not have).
    const roots: (Document | ShadowRoot)[] = [document];
    for (let i = 0; i < roots.length; i++) {
      for (const el of roots[i]!.querySelectorAll<HTMLElement>('*')) {
        if (el.shadowRoot) roots.push(el.shadowRoot);
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        // Visually hidden text (1 px, clipped) is meant to be off the layout.
        if (getComputedStyle(el).clipPath === 'inset(50%)' || el.closest('.sr-only')) continue;
        const name = `${el.localName}${el.id ? `#${el.id}` : ''}.${el.className}`;
        if (r.left < -0.5 || r.right > width + 0.5)
          found.push(`${name} (${Math.round(r.left)}..${Math.round(r.right)})`);
        const style = getComputedStyle(el);
        if (style.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1)
          found.push(`${name} scrolls sideways (${el.scrollWidth} > ${el.clientWidth})`);
      }
    }
    return found;
  });
}

interface Focus {
  name: string;
  /** Its `name` attribute (the element's fields). */
  field: string | null;
  outline: string;
  outlineWidth: number;
  inView: boolean;
  onTop: boolean;
  width: number;
  height: number;
}

/** What the focused control is and how its focus shows. */
function focus(page: Page): Promise<Focus | null> {
  return page.evaluate(() => {
    // The focused element, inside the element's shadow root when focus is there.
    let el = document.activeElement as HTMLElement | null;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement as HTMLElement;
    if (!el || el === document.body) return null;
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    // What a pointer at its centre reaches, through shadow roots.
    let hit = document.elementFromPoint(x, y);
    while (hit?.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    const style = getComputedStyle(el);
    return {
      name: `${el.localName} "${(el.getAttribute('aria-label') ?? el.textContent ?? el.getAttribute('name') ?? '').trim().slice(0, 40)}"`,
      field: el.getAttribute('name'),
      outline: style.outlineStyle,
      outlineWidth: parseFloat(style.outlineWidth),
      // A pixel of rounding either way.
      inView:
        r.top >= -1 && r.bottom <= innerHeight + 1 && r.left >= -1 && r.right <= innerWidth + 1,
      onTop: !!hit && (hit === el || el.contains(hit)),
      width: r.width,
      height: r.height,
    };
  });
}

/**
 * The element's form is ready: it said so (pay-ready, which the demo logs) and its fields are
 * enabled. Not `:not([disabled])`: while the session loads the fields' fieldset is disabled and the
 * field has no attribute. Before it, on a busy machine, a Tab skipped the form and a Use button's
 * card was wiped by the form's first render.
 */
async function formReady(page: Page): Promise<void> {
  await page.locator('#event-log li', { hasText: 'pay-ready' }).waitFor();
  await page.locator('pay-checkout input[name="number"]:enabled').waitFor();
}

async function testCardsShown(page: Page): Promise<void> {
  await page.locator('#test-cards tbody tr').first().waitFor();
}

// Pages of their own, read and measured, no keyboard: a few at once (SHOPPERS_AT_ONCE). The
// forced-colors and keyboard tests below move focus, and run one at a time.
describe('the demo shop on a phone', SHOPPERS_AT_ONCE, () => {
  test('at 390 px the test-card table fits: every scenario, number, code and Use button on screen', async () => {
    const page = await harness.newPage(PHONE);
    await page.goto(harness.stack().shopUrl);
    await testCardsShown(page);
    assert.deepEqual(await overflowing(page), []);
    const rows = page.locator('#test-cards tbody tr');
    const count = await rows.count();
    assert.ok(count >= 10, `${count} test cards`);
    for (let i = 0; i < count; i++) {
      const row = rows.nth(i);
      for (const cell of await row.locator('td').all()) {
        const box = await cell.boundingBox();
        assert.ok(box && box.x >= 0 && box.x + box.width <= PHONE.width, JSON.stringify(box));
      }
      const use = await row.getByRole('button').boundingBox();
      assert.ok(use && use.width >= 24 && use.height >= 24, JSON.stringify(use));
    }
    // Each value is named (the table's headers are out of sight): "Code 1234".
    const code = rows
      .filter({ hasText: /^3ds2-challenge/ })
      .first()
      .locator('td')
      .nth(3);
    assert.equal(await code.textContent(), '1234');
    assert.match(
      await code.evaluate((td) => getComputedStyle(td, '::before').content),
      /^attr\(data-label\) " "|^"Code "/,
    );
    assert.equal(await code.getAttribute('data-label'), 'Code');
    // Still a table to a screen reader: rows, cells and their column headers.
    assert.equal(await page.getByRole('table', { name: 'Test cards' }).count(), 1);
    assert.equal(await page.getByRole('columnheader', { name: 'Code' }).count(), 1);
    assert.ok((await page.getByRole('cell', { name: '1234' }).count()) >= 1);
  });

  test('at 390 px and at 320 px the checkout fits, the form in it too; Use fills the card', async () => {
    const page = await harness.newPage(PHONE);
    await openCheckout(page, harness.stack().shopUrl);
    await testCardsShown(page);
    assert.deepEqual(await overflowing(page), []);
    await formReady(page);
    await page.getByRole('button', { name: 'Use the approved card' }).click();
    assert.equal(await page.getByLabel('Card number').inputValue(), '4000 0000 0000 0002');
    await page.setViewportSize({ width: 320, height: 640 });
    assert.deepEqual(await overflowing(page), []);
    await page.goto(`${harness.stack().shopUrl}/tools.html`);
    assert.deepEqual(await overflowing(page), []);
  });
});

describe(
  'axe-core finds nothing on the demo and the backend pages, at any impact',
  SHOPPERS_AT_ONCE,
  () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      test(`${colorScheme}: the shop, its checkout in each theme and in Arabic, and the tools page`, async () => {
        const page = await harness.newPage(PHONE);
        await page.emulateMedia({ colorScheme });
        await page.goto(harness.stack().shopUrl);
        await testCardsShown(page);
        assert.deepEqual(await axeViolations(page), [], 'the shop');
        for (const [theme, locale] of [
          ['Light', 'en'],
          ['Dark', 'en'],
          ['Brand', 'en'],
          ['Light', 'ar'],
        ] as const) {
          await page.getByRole('combobox', { name: 'Theme' }).selectOption({ label: theme });
          await page.getByRole('combobox', { name: 'Language' }).selectOption(locale);
          // The new checkout, not the one before it: the page names the new order once it is there.
          const before = (await page.locator('#pay-hint').textContent()) ?? '';
          await page.getByRole('button', { name: 'Go to payment' }).click();
          await page.locator('#pay-hint').filter({ hasNotText: before }).waitFor();
          // A click waits until the field is enabled: the session is loaded, the form ready.
          await page.locator('pay-checkout input[name="number"]').click();
          // The refused form: every error shown.
          await page.locator('pay-checkout button[type="submit"]').click();
          await page
            .locator('pay-checkout [part~="error-number"]')
            .filter({ hasText: /\S/ })
            .waitFor();
          assert.deepEqual(await axeViolations(page), [], `${theme} theme, ${locale}`);
        }
        await page.goto(`${harness.stack().shopUrl}/tools.html`);
        assert.deepEqual(await axeViolations(page), [], 'the tools page');
      });
    }

    test("the backend's own pages, as a shopper may see them at the top level: the return page and the launcher, in English and Arabic", async () => {
      const page = await harness.newPage(PHONE);
      for (const [language, dir] of [
        ['en', 'ltr'],
        ['ar', 'rtl'],
      ]) {
        await page.setExtraHTTPHeaders({ 'Accept-Language': language! });
        for (const path of ['/return/unknown-ref', '/launch/unknown-ref/unknown-key']) {
          for (const colorScheme of ['light', 'dark'] as const) {
            await page.emulateMedia({ colorScheme });
            await page.goto(`${harness.stack().shopUrl}${path}`);
            assert.equal(await page.getAttribute('html', 'lang'), language);
            assert.equal(await page.getAttribute('html', 'dir'), dir);
            assert.deepEqual(
              await axeViolations(page, WCAG_AA),
              [],
              `${path}, ${language}, ${colorScheme}`,
            );
            assert.deepEqual(await overflowing(page), [], path);
          }
        }
      }
    });

    test('forced colors: the shop, the checkout and the 3-D Secure dialog', async () => {
      const page = await harness.newPage(PHONE);
      await page.emulateMedia({ forcedColors: 'active' });
      await openCheckout(page, harness.stack().shopUrl);
      await testCardsShown(page);
      assert.deepEqual(await axeViolations(page), [], 'the checkout');
      await typeCard(page, harness.card('3ds2-challenge'));
      await payButton(page).click();
      await challengeFrame(page).getByLabel('One-time code').waitFor();
      assert.deepEqual(await axeViolations(page), [], 'the dialog');
    });
  },
);

/** Computed colours and widths of the element's parts, in forced colors. */
function partStyles(page: Page, selectors: string[]) {
  return page.evaluate((sels) => {
    const root = document.querySelector('pay-checkout')!.shadowRoot!;
    return Object.fromEntries(
      sels.map((sel) => {
        const el = root.querySelector(sel);
        if (!el) return [sel, null];
        const s = getComputedStyle(el);
        return [
          sel,
          {
            top: `${s.borderTopWidth} ${s.borderTopStyle} ${s.borderTopColor}`,
            right: `${s.borderRightWidth} ${s.borderRightStyle} ${s.borderRightColor}`,
            color: s.color,
            background: s.backgroundColor,
          },
        ];
      }),
    );
  }, selectors);
}

const TRANSPARENT = 'rgba(0, 0, 0, 0)';
/** A border a person sees: some width, a style, and a colour that is not transparent. */
function seen(border: string | undefined): boolean {
  return (
    !!border &&
    !border.startsWith('0px') &&
    !border.includes('none') &&
    !border.endsWith(TRANSPARENT)
  );
}

describe('forced colors (Windows contrast themes): nothing the shopper needs disappears', () => {
  test('the Pay button, fields and brand badge keep their edges, focus shows, the spinner still turns', async () => {
    const page = await harness.newPage(PHONE);
    await page.emulateMedia({ forcedColors: 'active' });
    await openCheckout(page, harness.stack().shopUrl);
    await formReady(page);
    await page.getByRole('button', { name: 'Use the 3ds2-method-timeout card' }).click();
    const before = await partStyles(page, [
      'button[type="submit"]',
      'input[name="number"]',
      '.brand',
    ]);
    for (const [sel, s] of Object.entries(before)) assert.ok(seen(s?.top), `${sel}: ${s?.top}`);
    // A keyboard focus ring, in a system colour.
    await page.getByLabel('Name on card').focus();
    await page.keyboard.press('Shift+Tab');
    const ring = await focus(page);
    assert.ok(ring && ring.outline === 'solid' && ring.outlineWidth >= 2, JSON.stringify(ring));
    // Paying: the card's 3DS Method never answers, so the spinner turns for 10 s.
    await payButton(page).click();
    await page.locator('pay-checkout .spinner').waitFor();
    const busy = await partStyles(page, ['.spinner', 'button[type="submit"]']);
    const spinner = busy['.spinner'];
    // Three sides drawn, the top one left out: a ring with a gap, which turns; in the button's
    // text colour, on the button's background.
    assert.ok(seen(spinner?.right), `spinner: ${JSON.stringify(spinner)}`);
    assert.ok(spinner?.top.endsWith(TRANSPARENT), `spinner: ${JSON.stringify(spinner)}`);
    assert.equal(
      spinner?.right.split(' ').slice(2).join(' '),
      busy['button[type="submit"]']?.color,
    );
    assert.notEqual(spinner?.color, busy['button[type="submit"]']?.background);
  });

  test('the 3-D Secure dialog keeps its edge and its ✕; by keyboard: Escape asks, Cancel gives the form back', async () => {
    // A desktop window: the dialog is a window over the page (on a phone it fills the screen,
    // with no edge to keep).
    const page = await harness.newPage();
    await page.emulateMedia({ forcedColors: 'active' });
    await openCheckout(page, harness.stack().shopUrl);
    await typeCard(page, harness.card('3ds2-challenge'));
    await page.keyboard.press('Enter');
    await challengeFrame(page).getByLabel('One-time code').waitFor();
    const styles = await partStyles(page, ['dialog', '.close']);
    assert.ok(seen(styles.dialog?.top), `dialog: ${styles.dialog?.top}`);
    assert.ok(seen(styles['.close']?.top), `close: ${styles['.close']?.top}`);
    const close = await page
      .getByRole('dialog')
      .getByRole('button', { name: 'Cancel verification' })
      .boundingBox();
    assert.ok(
      close && close.width >= 24 && close.height >= 24 && close.x >= 0,
      JSON.stringify(close),
    );
    // Focus is in the dialog; Escape asks first, on the safe choice.
    assert.match((await focus(page))?.name ?? '', /^h2 "Confirm the payment/);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Keep confirming' }).waitFor();
    assert.match((await focus(page))?.name ?? '', /^button "Keep confirming"/);
    await page.keyboard.press('Tab');
    assert.match((await focus(page))?.name ?? '', /^button "Cancel payment"/);
    await page.keyboard.press('Enter');
    // The session takes another attempt: the form is back, focus on the card number.
    await page.locator('pay-checkout [part="notice"]').waitFor();
    assert.equal((await focus(page))?.field, 'number');
    assert.equal(await page.getByRole('dialog').count(), 0);
  });
});

describe('by keyboard alone', () => {
  test('every stop of the shop and its checkout shows its focus, on screen and on top; the shopper pays', async () => {
    const page = await harness.newPage(PHONE);
    await page.goto(harness.stack().shopUrl);
    await testCardsShown(page);
    // Every stop from the top of the page: the order form to "Go to payment".
    const stops: string[] = [];
    const check = async () => {
      const f = await focus(page);
      assert.ok(f, `Tab ${stops.length + 1} reached nothing`);
      stops.push(f.name);
      assert.ok(f.outline !== 'none' && f.outlineWidth >= 2, `no focus ring on ${f.name}`);
      assert.ok(f.inView && f.onTop, `${f.name} is off screen or covered: ${JSON.stringify(f)}`);
      assert.ok(f.width >= 24 && f.height >= 24, `${f.name} is smaller than 24 px`);
      return f;
    };
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const f = await check();
      if (f.name.startsWith('button "Go to payment"')) break;
    }
    assert.match(stops.at(-1) ?? '', /Go to payment/, stops.join('\n'));
    await page.keyboard.press('Enter');
    await payButton(page).waitFor();
    await formReady(page);
    // Into the element: the card, typed.
    const card = harness.card('approved');
    for (const text of [
      card.pan,
      `${card.expMonth}${card.expYear.slice(-2)}`,
      card.cvv,
      'Alex Shopper',
    ]) {
      await page.keyboard.press('Tab');
      await check();
      await page.keyboard.type(text);
    }
    // The demo offers to save the card: its box comes before Pay.
    await page.keyboard.press('Tab');
    await check();
    assert.equal(
      await page.evaluate(() =>
        document.querySelector('pay-checkout')?.shadowRoot?.activeElement?.getAttribute('name'),
      ),
      'saveCard',
    );
    await page.keyboard.press('Tab');
    assert.match((await check()).name, /^button "Pay/);
    // On through the test cards, the order panel and the logs, to the end of the page: no trap.
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab');
      if ((await focus(page)) === null) break;
      await check();
    }
    assert.equal(await focus(page), null, `focus never left the page:\n${stops.join('\n')}`);
    assert.ok(
      stops.some((s) => s.startsWith('button "Use the approved card"')),
      stops.join('\n'),
    );
    // Back to the Pay button, and pay with Enter.
    await payButton(page).focus();
    await page.keyboard.press('Enter');
    assert.match(await result(page), /Payment approved/);
  });
});
