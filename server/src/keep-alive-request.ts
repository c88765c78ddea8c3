/**
 * One HTTP request over node:http or node:https through a keep-alive agent per protocol: what the
 * gateway client (gateway/http-post.ts) and the sandbox's callbacks (sandbox/http/callback-get.ts)
 * send instead of the global fetch, which cost several times the CPU per call (undici's WHATWG
 * objects and body streams; test/bench/RESULTS.md). Redirects are never followed (node:http does
 * not follow them). The signal aborts the request. `settle` reads the response and answers; an
 * error of the request or the response rejects.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/**
 * How long an idle connection waits to be reused, at most: undici's default, below the 5 s after
 * which Node's own servers close one. A server that announces less (`Keep-Alive: timeout=N`) is
 * left a second's margin below N. Node 20's agent honours that announcement only when it has a
 * timeout of its own; without one it kept idle sockets until the server closed them, and a sale
 * sent just as the gateway closed its socket failed as "could not be reached", its outcome
 * unknown, although the gateway never saw it (a real run of the e2e suite, under load).
 */
export const IDLE_SOCKET_MS = 4_000;

// `timeout` only closes a socket that is idle in the agent's pool: a request waiting for its
// answer is bounded by its own signal.
const AGENTS = {
  'http:': new HttpAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
  'https:': new HttpsAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
};

export interface KeepAliveRequest {
  method: string;
  headers?: Record<string, string>;
  body?: Uint8Array;
  signal?: AbortSignal;
}

export function keepAliveRequest<T>(
  url: URL,
  init: KeepAliveRequest,
  settle: (res: IncomingMessage, resolve: (value: T) => void, reject: (e: unknown) => void) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const protocol = url.protocol;
    if (protocol !== 'http:' && protocol !== 'https:') {
      reject(new TypeError(`Unsupported protocol ${protocol}`));
      return;
    }
    const send = protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      url,
      { method: init.method, headers: init.headers, agent: AGENTS[protocol], signal: init.signal },
      (res) => {
        res.on('error', reject);
        settle(res, resolve, reject);
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}
