/**
 * The sandbox's default HTTP for its callbacks (callbacks.ts): one GET over node:http or
 * node:https through a keep-alive agent, answering the status and dropping the body. Node's global
 * fetch (undici) did the same at several times the CPU per call; in the backend bench's pay cycle
 * the callback's fetch was about a tenth of the sandbox's CPU time (test/bench/RESULTS.md).
 * Redirects are never followed (node:http does not): a 3xx is the answer, as `redirect: 'manual'`
 * made it. The signal aborts the request (the callback's timeout).
 */
import { keepAliveRequest } from '../../keep-alive-request.js';

/** What callbacks.ts asks of its HTTP: the global fetch satisfies it too. */
export type CallbackFetch = (
  url: URL,
  init: { method: 'GET'; redirect: 'manual'; signal: AbortSignal },
) => Promise<{ status: number; body?: { cancel(): Promise<void> } | null }>;

export const callbackGet: CallbackFetch = (url, init) =>
  keepAliveRequest(url, { method: init.method, signal: init.signal }, (res, resolve) => {
    // The body says nothing the sandbox keeps: read it to its end so the socket is reused.
    res.resume();
    res.on('end', () => resolve({ status: res.statusCode ?? 0, body: null }));
  });
