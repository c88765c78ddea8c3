// The demo shop's checkout page: what a merchant writes around <pay-checkout>.
// 1. Ask our own server for a checkout session (it calls the merchant API with the secret key).
// 2. Put <pay-checkout backend session> on the page and listen to its events.
// 3. After payment, show the order and the operations its state allows (through our server).

import { api, operation } from './shop-api.js';

const $ = (selector) => document.querySelector(selector);
const BACKEND = window.location.origin;
const TOKENS = 'demo-checkout-tokens'; // session tokens by order id, to resume after a redirect
const CURRENT = 'demo-checkout-current'; // the order whose payment is under way in this tab

// ---- events and history -------------------------------------------------------------------

// The element's own words that its events carry, in its language: a pay-error's message for these
// codes (the element's check of a field, a challenge timed out or cancelled). Other messages are
// the backend's or the browser's, in English, as this page is.
const ELEMENT_WORDS = new Set(['validation', 'three-ds-timeout', 'challenge-cancelled']);
let elementLanguage = 'en';

/** The element's message in `detail`, when it carries one. */
const elementMessage = (type, detail) =>
  type === 'pay-error' && ELEMENT_WORDS.has(detail?.code) && detail.message ? detail.message : '';

/**
 * The element's words repeated in this English page, marked with their language and isolated
 * (`dir=auto`): a screen reader reads them in their own voice, and right-to-left words keep their
 * order inside an English line (WCAG 3.1.2).
 */
function elementWords(text) {
  const span = document.createElement('span');
  span.lang = elementLanguage;
  span.dir = 'auto';
  span.textContent = text;
  return span;
}

function logEvent(event) {
  const item = document.createElement('li');
  const json = JSON.stringify(event.detail ?? {});
  const words = elementMessage(event.type, event.detail);
  const quoted = words ? JSON.stringify(words) : '';
  const at = quoted ? json.indexOf(quoted) : -1;
  item.append(
    `${new Date().toLocaleTimeString()} ${event.type} `,
    ...(at < 0
      ? [json]
      : [json.slice(0, at), elementWords(quoted), json.slice(at + quoted.length)]),
  );
  $('#event-log').prepend(item);
}

function logStatus(text) {
  const item = document.createElement('li');
  item.textContent = `${new Date().toLocaleTimeString()} ${text}`;
  $('#status-history').append(item);
}

/** The result line: text, and the element's words as elementWords() marks them. */
function showResult(...parts) {
  $('#result').replaceChildren(...parts);
}

// ---- checkout ------------------------------------------------------------------------------

// widget/src/events.ts's PAY_EVENTS (this page is plain JavaScript): test/widget/events.test.ts
// checks the two lists match.
const EVENTS = [
  'pay-ready',
  'pay-change',
  'pay-submit',
  'pay-3ds-method',
  'pay-challenge',
  'pay-redirect',
  'pay-status',
  'pay-success',
  'pay-declined',
  'pay-error',
];

function mountCheckout({ token, orderId, mode, challenge, locale, theme }) {
  const element = document.createElement('pay-checkout');
  element.setAttribute('backend', BACKEND);
  element.setAttribute('session', token);
  element.setAttribute('mode', mode);
  element.setAttribute('challenge', challenge);
  element.setAttribute('locale', locale);
  element.className = `theme-${theme}`;
  // The language the element speaks: the demo offers only languages it has.
  elementLanguage = locale;
  for (const type of EVENTS) element.addEventListener(type, logEvent);
  element.addEventListener('pay-status', (event) =>
    logStatus(`status: ${JSON.stringify(event.detail)}`),
  );
  element.addEventListener('pay-success', (event) => {
    showResult(`Payment approved. Thank you! (order ${event.detail.orderId ?? orderId})`);
    refreshOrder(orderId);
  });
  // With attempts left the widget shows its form again: the shopper may pay with another card.
  const again = (detail) =>
    detail.attemptsLeft > 0 ? ` (the shopper may try again: ${detail.attemptsLeft} left)` : '';
  element.addEventListener('pay-declined', (event) => {
    showResult(
      `Payment declined: ${event.detail.reason ?? 'no reason given'}${again(event.detail)}`,
    );
    refreshOrder(orderId);
  });
  element.addEventListener('pay-error', (event) => {
    const { code, message } = event.detail;
    const words = elementMessage(event.type, event.detail);
    showResult(
      `Payment failed: ${code}`,
      ...(message ? [' (', words ? elementWords(words) : message, ')'] : []),
      again(event.detail),
    );
    refreshOrder(orderId);
  });
  // The checkout is over (a reload starts a new one) unless the session takes another attempt.
  for (const type of ['pay-success', 'pay-declined', 'pay-error']) {
    element.addEventListener(type, (event) => {
      if (!(event.detail.attemptsLeft > 0)) sessionStorage.removeItem(CURRENT);
    });
  }
  $('#checkout-slot').replaceChildren(element);
  $('#pay-hint').textContent = `Order ${orderId}`;
  currentOrderId = orderId;
  sessionStorage.setItem(CURRENT, orderId);
  return element;
}

let currentOrderId = null;

$('#order-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = new FormData(event.currentTarget);
  const choice = Object.fromEntries(form);
  showResult('');
  $('#event-log').replaceChildren();
  $('#status-history').replaceChildren();
  const created = await api('/demo/api/checkout', {
    amount: choice.amount,
    currency: choice.currency,
    intent: choice.intent,
    description: 'Noise-cancelling headphones',
    saveCard: choice.saveCard === 'ask',
    returning: choice.returning === 'yes',
    knows: choice.knows,
  });
  if (!created.ok) {
    showResult(`Could not start the checkout: ${created.data?.error?.message ?? created.status}`);
    return;
  }
  const { token, orderId } = created.data;
  const saved = JSON.parse(sessionStorage.getItem(TOKENS) ?? '{}');
  saved[orderId] = { token, ...choice };
  sessionStorage.setItem(TOKENS, JSON.stringify(saved));
  logStatus(`session created for ${orderId}`);
  mountCheckout({ token, orderId, ...choice });
  // The order exists from the session's first moment: awaiting-payment until the shopper pays.
  refreshOrder(orderId);
});

// Back from a full-page redirect (3-D Secure by redirect, or the hosted form), or reloaded in the
// middle of a payment: the same session token on a new <pay-checkout> picks the payment up from
// the backend and ends it. Nothing is paid twice: a session takes at most one payment.
function resumePayment() {
  const orderId =
    new URLSearchParams(window.location.search).get('resume') ?? sessionStorage.getItem(CURRENT);
  if (!orderId) return;
  const saved = JSON.parse(sessionStorage.getItem(TOKENS) ?? '{}')[orderId];
  if (!saved) {
    showResult(`Back from the payment of ${orderId}, but this tab did not start it.`);
    refreshOrder(orderId);
    return;
  }
  logStatus(`resuming the payment of ${orderId}`);
  mountCheckout({ orderId, ...saved });
}

// ---- test cards ----------------------------------------------------------------------------

async function loadTestCards() {
  const { ok, data } = await api('/demo/api/test-cards');
  if (!ok || !Array.isArray(data)) return;
  // Each value with its column's name (data-label), which a phone shows beside it (styles.css).
  const rows = data.map((card) => {
    const row = document.createElement('tr');
    const cells = [
      ['', card.scenario],
      ['Card', card.pan.replace(/(\d{4})(?=\d)/g, '$1 ')],
      ['CVV', card.cvv],
      ['Code', card.otp ?? '—'],
    ];
    for (const [label, text] of cells) {
      const cell = document.createElement('td');
      cell.textContent = text;
      if (label) cell.dataset.label = label;
      if (label === 'Card') cell.className = 'pan';
      row.append(cell);
    }
    const use = document.createElement('button');
    use.type = 'button';
    use.textContent = 'Use';
    use.setAttribute('aria-label', `Use the ${card.scenario} card`);
    use.addEventListener('click', () => fillCard(card));
    const cell = document.createElement('td');
    cell.append(use);
    row.append(cell);
    return row;
  });
  $('#test-cards tbody').replaceChildren(...rows);
  keepTableRoles($('#test-cards'));
}

// On a phone the rows are laid out as blocks (styles.css), and some browsers drop a table's
// meaning once its parts are no longer displayed as table parts: the roles, spelled out, keep it.
function keepTableRoles(table) {
  table.setAttribute('role', 'table');
  for (const group of table.querySelectorAll('thead, tbody'))
    group.setAttribute('role', 'rowgroup');
  for (const row of table.querySelectorAll('tr')) row.setAttribute('role', 'row');
  for (const header of table.querySelectorAll('th')) header.setAttribute('role', 'columnheader');
  for (const cell of table.querySelectorAll('td')) cell.setAttribute('role', 'cell');
}

// QA convenience only: types a test card into the widget's own fields, as a shopper would.
function fillCard(card) {
  const root = document.querySelector('pay-checkout')?.shadowRoot;
  if (!root) {
    showResult('Press “Go to payment” first, then pick a card.');
    return;
  }
  const values = {
    'cc-number': card.pan,
    'cc-exp': `${card.expMonth}/${String(card.expYear).slice(-2)}`,
    'cc-csc': card.cvv,
    'cc-name': 'Alex Shopper',
  };
  for (const [autocomplete, value] of Object.entries(values)) {
    const input = root.querySelector(`input[autocomplete="${autocomplete}"]`);
    if (!input) continue;
    input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    input.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
  }
}

// ---- the order and what can be done with it ------------------------------------------------

let orderReads = 0;

async function refreshOrder(orderId) {
  // Only the latest read is shown: an earlier one answering late must not show an older state.
  const read = ++orderReads;
  const { ok, data } = await operation('order-read', { orderId });
  if (read !== orderReads) return;
  if (!ok) {
    $('#order-view').textContent = `Order ${orderId}: ${data?.error?.message ?? 'not found yet'}`;
    return;
  }
  renderOrder(data);
}

function renderOrder(order) {
  const list = document.createElement('dl');
  const facts = {
    Order: order.orderId,
    'Gateway order': order.gatewayOrderId ?? '—',
    Status: order.status,
    Intent: order.intent,
    Amount: `${order.amount} ${order.currency}`,
    Captured: order.capturedAmount,
    Returned: order.returnedAmount,
    Voided: order.voided ? 'yes' : 'no',
    Card: order.card ? `${order.card.brand} ${order.card.masked}` : '—',
    Attempts: attemptsText(order.attempts ?? []),
  };
  for (const [term, value] of Object.entries(facts)) {
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    dd.textContent = String(value);
    list.append(dt, dd);
  }
  $('#order-view').replaceChildren(list);
  renderActions(order);
}

/** Every payment attempt of the order, one per line: number, id, status, why, card, reversal. */
function attemptsText(attempts) {
  if (attempts.length === 0) return '—';
  return attempts
    .map((a) => {
      const why = a.errorCode ? ` (${a.errorCode}${a.reason ? `: ${a.reason}` : ''})` : '';
      const card = a.card ? ` ${a.card.brand} •••• ${a.card.last4}` : '';
      const left = a.abandoned ? ', bank page left' : '';
      const reversal = a.reversal
        ? `, reversed${a.reversal.reversedAt ? '' : ' (pending)'}: ${a.reversal.reason}`
        : '';
      return `${a.attempt}. ${a.id} ${a.status}${why}${card}${left}${reversal}`;
    })
    .join('\n');
}

function actionButton(label, run) {
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = label;
  button.addEventListener('click', async () => {
    button.disabled = true;
    const { ok, data } = await run();
    logStatus(`${label}: ${ok ? 'done' : (data?.error?.message ?? 'refused')}`);
    await refreshOrder(currentOrderId);
    button.disabled = false;
  });
  return button;
}

function partialAmount(order) {
  const value = window.prompt(`Amount (${order.currency})`, order.amount);
  return value ? { amount: value } : {};
}

/** Minor units of a decimal amount string, exactly (no floats). */
function minor(amount) {
  const [whole, fraction = ''] = String(amount).split('.');
  return BigInt(whole + fraction);
}

/**
 * The operations worth offering for this order. The merchant API checks every request against the
 * order's state anyway (409 with the reason), so this only keeps pointless buttons away.
 */
function offeredOperations(order) {
  if (order.status !== 'approved') return [];
  const amount = minor(order.amount);
  const captured = minor(order.capturedAmount);
  const returned = minor(order.returnedAmount);
  const offered = [];
  if (order.intent === 'preauth' && !order.voided && captured === 0n && returned === 0n) {
    offered.push('capture', 'void');
  }
  const settled = order.intent === 'sale' ? amount : captured;
  if (!order.voided && (returned < settled || (order.intent === 'preauth' && captured === 0n))) {
    offered.push('return');
  }
  offered.push('card-ref');
  return offered;
}

function renderActions(order) {
  const id = { orderId: order.orderId };
  const buttons = [actionButton('Refresh status', () => operation('order-status', id, {}))];
  if (order.status === 'awaiting-payment' && order.sessionId) {
    const session = { sessionId: order.sessionId };
    buttons.push(
      actionButton('End the session unpaid', () => operation('session-expire', session, {})),
    );
  }
  for (const name of offeredOperations(order)) {
    if (name === 'capture') {
      buttons.push(actionButton('Capture in full', () => operation('order-capture', id, {})));
      buttons.push(
        actionButton('Capture part…', () => operation('order-capture', id, partialAmount(order))),
      );
    }
    if (name === 'void') buttons.push(actionButton('Void', () => operation('order-void', id, {})));
    if (name === 'return') {
      buttons.push(actionButton('Return in full', () => operation('order-return', id, {})));
      buttons.push(
        actionButton('Return part…', () => operation('order-return', id, partialAmount(order))),
      );
    }
    if (name === 'card-ref') {
      buttons.push(
        actionButton('Create a card reference', async () => {
          const result = await operation('order-card-ref', id, {});
          if (result.ok) cardRefId = result.data.cardRefId;
          return result;
        }),
      );
    }
  }
  if (cardRefId) {
    buttons.push(
      actionButton(`Rebill card ${cardRefId}`, () =>
        operation(
          'rebill',
          {},
          {
            cardRefId,
            amount: order.amount,
            currency: order.currency,
            orderId: `rebill-${Date.now()}`,
          },
        ),
      ),
    );
  }
  $('#order-actions').replaceChildren(...buttons);
}

let cardRefId = null;

loadTestCards();
resumePayment();
