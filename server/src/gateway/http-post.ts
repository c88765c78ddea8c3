/**
 * The gateway client's own HTTP, its default `FetchLike`: one POST over node:http or node:https
 * through a keep-alive agent per protocol (keep-alive-request.ts). Node's global fetch (undici)
 * did the same job at several times the CPU per call (WHATWG Request, Response and Headers
 * objects, body streams): its two calls in a payment (sale, status) were about a seventh of the
 * backend's CPU time for that payment (test/bench/RESULTS.md, "Where the time went"). A test or a
 * merchant may still inject any fetch (`gatewayFetch`).
 *
 * Only what FetchLike promises: the response's status, headers and whole body as text (UTF-8,
 * a byte order mark dropped, as `Response.text()` does). Redirects are never followed (node:http
 * does not follow them): a 3xx comes back as the answer. The signal aborts the request. The agents
 * reuse connections as undici did, and close an idle one after 4 s or a second before the
 * `Keep-Alive: timeout` the server announced, so a request is not sent on a socket the server is
 * closing (keep-alive-request.ts). The request asks for an uncompressed answer; one that comes
 * compressed anyway is decoded.
 */
import type { IncomingMessage } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { keepAliveRequest } from '../keep-alive-request.js';
import type { FetchInit, FetchLike, FetchResponseLike } from './transport.js';

const DECODERS: Record<string, (body: Buffer) => Buffer> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

function answer(res: IncomingMessage, body: Buffer): FetchResponseLike {
  const encoding = String(res.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const decode = DECODERS[encoding];
  const text = new TextDecoder().decode(decode ? decode(body) : body);
  return {
    status: res.statusCode ?? 0,
    headers: {
      get(name: string) {
        const value = res.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    },
    text: async () => text,
  };
}

export const httpPost: FetchLike = (url: string, init: FetchInit) =>
  keepAliveRequest<FetchResponseLike>(
    new URL(url),
    {
      method: init.method,
      headers: { 'Accept-Encoding': 'identity', ...init.headers },
      body: init.body,
      signal: init.signal,
    },
    (res, resolve, reject) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        try {
          resolve(answer(res, Buffer.concat(chunks)));
        } catch (error) {
          reject(error);
        }
      });
    },
  );
