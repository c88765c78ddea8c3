/** Waiting on frames and window messages in tests. */

/** Polls until `fn` returns a value (or throws after `ms` real milliseconds). */
export async function waitUntil<T>(
  fn: () => T | undefined | null | false,
  what: string,
  ms = 4000,
): Promise<T> {
  const start = performance.now();
  for (;;) {
    const v = fn();
    if (v) return v;
    if (performance.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The document titled `title` in `frame` or in a frame inside it (the launcher's), if loaded. */
export function pageIn(frame: HTMLIFrameElement, title: string): Document | undefined {
  try {
    const doc = frame.contentDocument;
    if (doc?.title === title) return doc;
    const inner = doc?.querySelector('iframe');
    return inner ? pageIn(inner, title) : undefined;
  } catch {
    return undefined;
  }
}

/** The fields a same-origin fake page received (its `<pre id="received">`), once it has loaded. */
export function receivedBy(
  frame: HTMLIFrameElement,
  title: string,
): Promise<Record<string, string>> {
  return waitUntil(() => {
    try {
      const doc = pageIn(frame, title);
      if (!doc) return undefined;
      const pre = doc.getElementById('received');
      return pre ? (JSON.parse(pre.textContent!) as Record<string, string>) : undefined;
    } catch {
      return undefined;
    }
  }, `frame page "${title}"`);
}

export interface ReturnPosted {
  fakeReturnPosted: { type: string; orderId: string };
  received: Record<string, string>;
}

/** Resolves with the fake return page's marker message (sent right after its ReturnMessage). */
export function nextReturnPosted(): Promise<{ data: ReturnPosted; origin: string }> {
  return new Promise((resolve) => {
    const on = (e: MessageEvent) => {
      if (e.data && typeof e.data === 'object' && 'fakeReturnPosted' in e.data) {
        window.removeEventListener('message', on);
        resolve({ data: e.data as ReturnPosted, origin: e.origin });
      }
    };
    window.addEventListener('message', on);
  });
}

export const b64url = (s: string): string =>
  btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** A launcher page of the fake backend that posts `fields` to `to` (or frames `page`). */
export function fakeLaunch(
  to: string | null,
  fields: Record<string, string> = {},
  page = '',
): string {
  const q = new URLSearchParams({ fields: JSON.stringify(fields), page });
  if (to) q.set('to', to);
  return `${location.origin}/fake-backend/launch?${q}`;
}
