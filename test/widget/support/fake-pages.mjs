/**
 * Fake ACS and backend return pages for the widget's browser tests, served by the test server
 * (web-test-runner middleware). They behave like the real pages where it matters: real form
 * POSTs into frames, and a return page that reports to `window.parent` by postMessage.
 * Every page echoes what it received in `<pre id="received">` so tests can assert exact fields.
 */

function readBody(req) {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (c) => {
      data += c;
    });
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

const esc = (s) =>
  String(s).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );

/** JSON for inline <script>: "<" escaped so no value can close the script element. */
const js = (v) => JSON.stringify(v).replace(/</g, '\\u003c');

function page(title, received, body = '', script = '') {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title></head>
<body><h1>${esc(title)}</h1><pre id="received">${esc(JSON.stringify(received))}</pre>${body}
<script>${script}</script></body></html>`;
}

function autoForm(action, fields, submit) {
  const inputs = Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('');
  return {
    body: `<form id="f" method="POST" action="${esc(action)}">${inputs}<button id="go">Continue</button></form>`,
    script: submit ? `document.getElementById('f').submit();` : '',
  };
}

const b64url = (s) => Buffer.from(s).toString('base64url');

/**
 * The backend's launcher page: `to` and `fields` (JSON) name the form to post, or `page` the
 * gateway page to frame. Framed, it posts into a frame of its own (as the real one does); at the
 * top level into itself.
 */
function launcher(url) {
  const to = url.searchParams.get('to');
  const fields = JSON.parse(url.searchParams.get('fields') ?? '{}');
  const pageUrl = url.searchParams.get('page') ?? '';
  const inputs = Object.entries(fields)
    .map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`)
    .join('');
  const form = to
    ? `<form id="f" method="POST" action="${esc(to)}" target="bank">${inputs}</form>`
    : '';
  const script = `var f = document.getElementById('f');
if (window.parent !== window) { if (f) f.submit(); else document.getElementById('bank').src = ${js(pageUrl)}; }
else if (f) { f.target = '_self'; f.submit(); } else { location.replace(${js(pageUrl)}); }`;
  return page(
    'Launcher',
    {},
    `<iframe id="bank" name="bank" style="width:100%;height:100%;border:0"></iframe>${form}`,
    script,
  );
}

/** Koa middleware for /fake-acs/*, /fake-backend/launch, /fake-backend/return/* and /fake-backend/gateway-page/*. */
export function fakePages() {
  return async function fakePagesMiddleware(ctx, next) {
    const url = new URL(ctx.url, 'http://x');
    const path = url.pathname;
    if (
      !path.startsWith('/fake-acs/') &&
      path !== '/fake-backend/launch' &&
      !path.startsWith('/fake-backend/return/') &&
      !path.startsWith('/fake-backend/gateway-page/')
    )
      return next();
    const raw = ctx.method === 'POST' ? await readBody(ctx.req) : '';
    const received = Object.fromEntries(new URLSearchParams(raw));
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-store');

    if (path === '/fake-backend/launch') {
      ctx.body = launcher(url);
      return;
    }
    if (path === '/fake-acs/method') {
      // Decode threeDSMethodData like an ACS and notify the URL inside it.
      let notify = '';
      try {
        notify = JSON.parse(
          Buffer.from(received.threeDSMethodData ?? '', 'base64url').toString(),
        ).threeDSMethodNotificationURL;
      } catch {}
      const f = autoForm(
        notify,
        { threeDSMethodData: received.threeDSMethodData ?? '' },
        Boolean(notify),
      );
      ctx.body = page('ACS method', received, f.body, f.script);
      return;
    }
    if (path === '/fake-acs/method-silent') {
      ctx.body = page('ACS method (never notifies)', received);
      return;
    }
    if (path === '/fake-acs/challenge') {
      // The return URL would come from the ARes in real life; here the test puts it in the query.
      const ret = url.searchParams.get('return') ?? '';
      const auto = url.searchParams.get('auto');
      const outcome = auto ?? 'Y';
      const f = autoForm(
        ret,
        {
          cres: b64url(JSON.stringify({ transStatus: outcome })),
          threeDSSessionData: received.threeDSSessionData ?? '',
        },
        Boolean(auto),
      );
      ctx.body = page('ACS challenge', received, f.body, f.script);
      return;
    }
    if (path === '/fake-acs/3ds1') {
      const f = autoForm(
        received.TermUrl ?? '',
        { PaRes: 'fake-pares', MD: received.MD ?? '' },
        false,
      );
      ctx.body = page('ACS 3-D Secure 1.0.2', received, f.body, f.script);
      return;
    }
    if (path.startsWith('/fake-backend/gateway-page/')) {
      // The backend's page serving a gateway's html: a form that posts itself to the ACS (the
      // test names it in the query, as the gateway's markup would).
      const f = autoForm(url.searchParams.get('acs') ?? '', { creq: 'from-gateway' }, true);
      ctx.body = page('Gateway page', received, f.body, f.script);
      return;
    }
    const m = /^\/fake-backend\/return\/([a-z-]+)\/([^/]+)$/.exec(path);
    if (m) {
      const msg = { source: 'pay-checkout', type: m[1], orderId: decodeURIComponent(m[2]) };
      // The real backend targets the merchant origin exactly; '*' is enough for a fake. The second
      // message lets a test know the first one has been delivered (messages arrive in order).
      // Every ancestor, as the real page: the widget's page is above the launcher's frame.
      ctx.body = page(
        'Return',
        received,
        '',
        `for (var w = window.parent; ; w = w.parent) { w.postMessage(${js(msg)}, '*'); w.postMessage({ fakeReturnPosted: ${js(msg)}, received: ${js(received)} }, '*'); if (w === window.top) break; }`,
      );
      return;
    }
    ctx.status = 404;
    ctx.body = 'no such fake page';
  };
}
