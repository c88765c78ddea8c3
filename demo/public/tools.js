// Server-to-server operations through the demo's own server (which holds the merchant API key).

import { operation as callOperation } from './shop-api.js';

const answers = document.querySelector('#answers');

/** Runs a merchant API operation and lists its answer on the page. */
async function operation(name, body, params = {}) {
  const { ok, status, data } = await callOperation(name, params, body);
  const item = document.createElement('li');
  item.textContent = `${name} → ${status} ${JSON.stringify(data)}`;
  answers.prepend(item);
  return { ok, data };
}

/** Form fields named `a.b` become nested objects: `{a: {b}}`. */
function formBody(form) {
  const body = {};
  for (const [name, value] of new FormData(form)) {
    const path = name.split('.');
    let target = body;
    for (const key of path.slice(0, -1)) target = target[key] ??= {};
    target[path.at(-1)] = value;
  }
  return body;
}

const uniqueId = (prefix) => `${prefix}-${Date.now().toString(36)}`;

/** The payout form's one number field, as the destination the merchant API expects. */
function payoutDestination({ kind, number, bankName }, twoStep) {
  if (kind === 'bank') return { bank: { accountNumber: number, bankName } };
  if (kind === 'phone') return { phone: number };
  return twoStep ? { cardNumber: number } : { card: { number } };
}

const handlers = {
  async payout(form) {
    const fields = formBody(form);
    const twoStep = Boolean(fields.twoStep);
    const body = {
      orderId: uniqueId('payout'),
      amount: fields.amount,
      currency: fields.currency,
      ...payoutDestination(fields, twoStep),
    };
    if (!twoStep) return operation('payout', body);
    const checked = await operation('payout-check', body);
    if (!checked.ok) return;
    const pay = document.createElement('button');
    pay.type = 'button';
    pay.textContent = `Pay the checked payout ${body.orderId}`;
    pay.addEventListener('click', () => operation('payout-pay', {}, { payoutId: body.orderId }));
    document.querySelector('#payout-actions').replaceChildren(pay);
  },
  'recurring-create': (form) => {
    const fields = formBody(form);
    return operation('recurring-create', {
      ...fields,
      interval: Number(fields.interval),
      orderId: uniqueId('rp'),
    });
  },
  async 'hosted-form'(form) {
    const body = {
      ...formBody(form),
      orderId: uniqueId('hosted'),
      customer: { email: 'shopper@example.com' },
      returnUrl: `${window.location.origin}/tools.html`,
    };
    // A verification charges nothing: no amount, but the currency the card is checked in.
    if (body.kind === 'account-verification') delete body.amount;
    const { ok, data } = await operation('hosted-form', body);
    if (ok && data.url) window.location.assign(data.url);
  },
  async 'payment-link'(form) {
    const { maxPayments, ...fields } = formBody(form);
    const max = Number(maxPayments);
    const body = { ...fields, ...(max > 1 ? { reusable: true, maxPayments: max } : {}) };
    const { ok, data } = await operation('payment-link', body);
    if (ok) showLink(data);
  },
};

/** The link's URL, its state and its QR code (the backend's SVG, shown as an image). */
function showLink(link) {
  const box = document.querySelector('#payment-link');
  const anchor = document.createElement('a');
  anchor.href = link.url;
  anchor.target = '_blank';
  anchor.rel = 'noopener';
  anchor.textContent = link.url;
  const qr = document.createElement('img');
  qr.src = `data:image/svg+xml;base64,${btoa(link.qrCode)}`;
  qr.alt = `QR code of ${link.url}`;
  qr.width = 160;
  qr.height = 160;
  const state = document.createElement('p');
  state.textContent = `State: ${link.state}, ${link.paymentCount} of ${link.maxPayments ?? '∞'} paid`;
  const refresh = document.createElement('button');
  refresh.type = 'button';
  refresh.textContent = 'Read the link again';
  refresh.addEventListener('click', async () => {
    const { ok, data } = await operation('payment-link-read', undefined, {
      paymentLinkId: link.id,
    });
    if (ok) showLink(data);
  });
  const off = document.createElement('button');
  off.type = 'button';
  off.textContent = 'Deactivate';
  off.addEventListener('click', async () => {
    const { ok, data } = await operation('payment-link-deactivate', {}, { paymentLinkId: link.id });
    if (ok) showLink(data);
  });
  box.replaceChildren(anchor, qr, state, refresh, off);
}

for (const form of document.querySelectorAll('form[data-operation]')) {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    handlers[form.dataset.operation](form);
  });
}
