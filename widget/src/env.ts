/**
 * Everything the element takes from the outside world that tests need to replace: the network,
 * timers and top-level navigation. The defaults are the real browser.
 */
export interface Clock {
  setTimeout(fn: () => void, ms: number): number;
  clearTimeout(id: number): void;
  now(): number;
}

export interface Env extends Clock {
  fetch: typeof fetch;
  /** Sends the whole page to `url` (hosted form, gateway redirect, the 3-D Secure launcher page). */
  navigate(url: string): void;
}

// Called as functions, not as methods of this object: `env.fetch(...)` with the browser's own
// fetch would run it on the wrong `this` (an Illegal invocation).
export const browserEnv = (): Env => ({
  fetch: (input, init) => fetch(input, init),
  // window's: the type checker that also sees Node's timers takes the browser's number ids.
  setTimeout: (fn, ms) => window.setTimeout(fn, ms),
  clearTimeout: (id) => window.clearTimeout(id),
  now: () => Date.now(),
  navigate: (url) => location.assign(url),
});

/** A delay on the given clock that ends early (rejecting) when `signal` aborts. */
export function sleep(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clock.clearTimeout(id);
      reject(signal.reason);
    };
    const id = clock.setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
