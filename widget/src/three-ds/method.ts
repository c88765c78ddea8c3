/**
 * The 3DS Method: the issuer's page fingerprints the browser inside a hidden iframe, then posts to
 * the backend's notification page, which tells us by postMessage. An iframe `load` event proves
 * nothing (it fires for error pages too), so only that message counts as `Y`.
 */
import type { Clock } from '../env.js';
import { buildPostForm } from './form-post.js';

export type CompInd = 'Y' | 'N' | 'U';

export interface MethodOptions {
  /** Where the hidden frame and form go (inside the element's shadow root). */
  container: ParentNode & Node;
  url?: string;
  data?: string;
  timeoutMs: number;
  clock: Clock;
  /** Resolves when the notification page reports completion. */
  completed: Promise<unknown>;
  signal: AbortSignal;
}

let seq = 0;

export async function runMethod(o: MethodOptions): Promise<CompInd> {
  // EMV: no Method URL for this card range means "U", reported at once.
  if (!o.url) return 'U';
  const doc = o.container.ownerDocument ?? document;
  const name = `pay-3ds-method-${++seq}`;
  const frame = doc.createElement('iframe');
  frame.name = name;
  frame.title = '3-D Secure method';
  frame.className = 'method-frame';
  frame.tabIndex = -1;
  frame.setAttribute('aria-hidden', 'true');
  const form = buildPostForm(doc, o.url, name, { threeDSMethodData: o.data ?? '' });
  o.container.append(frame, form);
  let timer: number | undefined;
  let onAbort: (() => void) | undefined;
  try {
    form.submit();
    return await new Promise<CompInd>((resolve, reject) => {
      timer = o.clock.setTimeout(() => resolve('N'), o.timeoutMs);
      o.completed.then(() => resolve('Y'), reject);
      onAbort = () => reject(o.signal.reason);
      if (o.signal.aborted) onAbort();
      else o.signal.addEventListener('abort', onAbort, { once: true });
    });
  } finally {
    if (timer !== undefined) o.clock.clearTimeout(timer);
    if (onAbort) o.signal.removeEventListener('abort', onAbort);
    frame.remove();
    form.remove();
  }
}
