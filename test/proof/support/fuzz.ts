/**
 * A small HTTP fuzzer: seeded random requests (methods, paths, headers, encodings, bodies) sent
 * over raw `http.request`, so malformed input reaches the server as a real client could send it.
 * Every answer is recorded; the caller asserts on them.
 */
import { Agent, request } from 'node:http';
import { gzipSync } from 'node:zlib';

export type Rand = () => number;

export const pick = <T>(r: Rand, list: readonly T[]): T => list[Math.floor(r() * list.length)] as T;
export const int = (r: Rand, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

const NASTY_STRINGS = [
  '',
  ' ',
  '0',
  '-1',
  '1e400',
  'NaN',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'prototype',
  '../../etc/passwd',
  '%00',
  '\u0000',
  '\uFFFF',
  '\uD800',
  '😀',
  'é',
  '<script>alert(1)</script>',
  "' or 1=1 --",
  '"; drop table orders; --',
  `$${'{'}7*7}`,
  '{{7*7}}',
  '4000000000000002',
  '10.42',
  '-10.42',
  '0.001',
  '999999999999999999999',
  'EUR',
  'eur',
  'XXX',
  'approved',
  'sale',
  'preauth',
  '1111',
  '2222',
  'a'.repeat(300),
  'x'.repeat(5000),
];

/** encodeURIComponent that turns a lone surrogate into raw (invalid UTF-8) percent-encoding. */
export function enc(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

export function randomString(r: Rand): string {
  const kind = r();
  if (kind < 0.5) return pick(r, NASTY_STRINGS);
  if (kind < 0.8) {
    const n = int(r, 0, 40);
    let s = '';
    for (let i = 0; i < n; i++) s += String.fromCharCode(int(r, 0, 0x2fff));
    return s;
  }
  return Math.random()
    .toString(36)
    .slice(2, 2 + int(r, 1, 12));
}

export function randomJson(r: Rand, depth = 0): unknown {
  const kind = r();
  if (depth > 4 || kind < 0.3) {
    return pick(r, [
      randomString(r),
      int(r, -1e9, 1e9),
      r() * 1e20,
      -0,
      true,
      false,
      null,
      Number.MAX_SAFE_INTEGER + 2,
    ]);
  }
  if (kind < 0.5) return Array.from({ length: int(r, 0, 5) }, () => randomJson(r, depth + 1));
  const obj: Record<string, unknown> = {};
  for (let i = 0, n = int(r, 0, 6); i < n; i++) {
    obj[r() < 0.3 ? pick(r, ['__proto__', 'constructor', 'toString']) : randomString(r)] =
      randomJson(r, depth + 1);
  }
  return obj;
}

/** A valid-looking object with one to three fields broken, dropped, added or retyped. */
export function mutate(r: Rand, value: unknown): unknown {
  if (value === null || typeof value !== 'object') {
    return r() < 0.5 ? randomJson(r, 3) : value;
  }
  const copy: Record<string, unknown> = Array.isArray(value)
    ? ([...value] as unknown as Record<string, unknown>)
    : { ...(value as Record<string, unknown>) };
  const keys = Object.keys(copy);
  for (let i = 0, n = int(r, 1, 3); i < n; i++) {
    const key = keys.length ? pick(r, keys) : 'x';
    const what = r();
    if (what < 0.25) delete copy[key];
    else if (what < 0.5) copy[key] = randomJson(r, 3);
    else if (what < 0.75) copy[key] = mutate(r, copy[key]);
    else copy[randomString(r) || 'extra'] = randomJson(r, 3);
  }
  return copy;
}

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface FuzzAnswer {
  request: FuzzRequest;
  status: number;
  body: string;
  /** Set when the connection failed after the request left (hang-up, reset). */
  error?: string;
}

/** Body encodings, from correct to broken. */
export function encodeBody(
  r: Rand,
  value: unknown,
): { body: Buffer; headers: Record<string, string> } {
  const json = JSON.stringify(value) ?? 'null';
  const roll = r();
  if (roll < 0.45)
    return { body: Buffer.from(json), headers: { 'content-type': 'application/json' } };
  if (roll < 0.55) {
    const form = new URLSearchParams();
    if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value))
        form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
    }
    return {
      body: Buffer.from(form.toString()),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    };
  }
  if (roll < 0.6)
    return {
      body: Buffer.from(json.slice(0, Math.max(0, json.length - 3))),
      headers: { 'content-type': 'application/json' },
    };
  if (roll < 0.65)
    return { body: Buffer.from(`\uFEFF${json}`), headers: { 'content-type': 'application/json' } };
  if (roll < 0.7)
    return {
      body: Buffer.from(json, 'utf16le'),
      headers: { 'content-type': 'application/json; charset=utf-16' },
    };
  if (roll < 0.74)
    return {
      body: Buffer.from(json),
      headers: { 'content-type': 'application/json; charset=koi8-r' },
    };
  if (roll < 0.78)
    return {
      body: gzipSync(json),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    };
  if (roll < 0.82)
    return {
      body: Buffer.from(json),
      headers: {
        'content-type': 'application/json',
        'content-encoding': pick(r, ['gzip', 'deflate', 'br', 'zstd', 'x-bogus', 'identity, gzip']),
      },
    };
  if (roll < 0.86) {
    const bytes = Buffer.alloc(int(r, 1, 200));
    for (let i = 0; i < bytes.length; i++) bytes[i] = int(r, 0, 255);
    return {
      body: bytes,
      headers: {
        'content-type': pick(r, [
          'application/json',
          'application/x-www-form-urlencoded',
          'application/octet-stream',
          'text/plain',
        ]),
      },
    };
  }
  if (roll < 0.89)
    return {
      body: Buffer.from(`{"a":${'['.repeat(5000)}`),
      headers: { 'content-type': 'application/json' },
    };
  if (roll < 0.92)
    return {
      body: Buffer.from(`{"x":"${'y'.repeat(int(r, 20_000, 120_000))}"}`),
      headers: { 'content-type': 'application/json' },
    };
  if (roll < 0.95)
    return {
      body: Buffer.from('--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--'),
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
    };
  return {
    body: Buffer.from(json),
    headers: {
      'content-type': pick(r, [
        '',
        'text/plain',
        'application/json;;;',
        'application/*',
        'x'.repeat(300),
      ]),
    },
  };
}

/** Path noise: percent-encoding errors, traversal, overlong segments, query pollution. */
export function noisyPath(r: Rand, path: string): string {
  const roll = r();
  if (roll < 0.6) return path;
  if (roll < 0.65) return `${path}/%`;
  if (roll < 0.7) return `${path}%E0%A4%A`;
  if (roll < 0.74) return `${path}/..%2f..%2f`;
  if (roll < 0.78)
    return `${path}?${pick(r, ['a=1&a=2', 'wait=abc', 'wait=1e400', 'wait[]=1', 'wait=-5', '__proto__[x]=1', 'constructor[prototype][x]=1', '%=%', 'x=%ZZ', `q=${'z'.repeat(9000)}`])}`;
  if (roll < 0.82) return `${path}/${'A'.repeat(int(r, 100, 4000))}`;
  if (roll < 0.86) return path.toUpperCase();
  if (roll < 0.9) return `${path}//`;
  if (roll < 0.94) return `${path};jsessionid=1`;
  return `/${enc(randomString(r))}`;
}

export function sendRaw(baseUrl: string, req: FuzzRequest, agent: Agent): Promise<FuzzAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    let settled = false;
    const done = (answer: FuzzAnswer) => {
      if (!settled) {
        settled = true;
        resolve(answer);
      }
    };
    let client: ReturnType<typeof request>;
    try {
      client = request({
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        headers: {
          ...req.headers,
          ...(req.body ? { 'content-length': String(req.body.length) } : {}),
        },
        agent,
        timeout: 15_000,
      });
    } catch (error) {
      // The client library refused to send it (invalid characters): not the server's business.
      done({ request: req, status: -1, body: '', error: `client: ${(error as Error).message}` });
      return;
    }
    client.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        done({ request: req, status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
      );
      res.on('error', (e) =>
        done({ request: req, status: res.statusCode ?? 0, body: '', error: e.message }),
      );
    });
    client.on('timeout', () => client.destroy(new Error('timeout')));
    client.on('error', (e) => done({ request: req, status: 0, body: '', error: e.message }));
    client.end(req.body);
  });
}

/** Runs `make` for up to `budgetMs` (or `max` requests), `concurrency` at a time. */
export async function runFuzz(
  baseUrl: string,
  make: (i: number) => FuzzRequest,
  /** At least `min` requests, then more until `budgetMs` or `max`: a loaded machine sends fewer
   * extra ones, never fewer than `min`, so what a run proves does not depend on its speed. */
  options: { budgetMs: number; min: number; max: number; concurrency: number },
): Promise<FuzzAnswer[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const fresh = new Agent({ keepAlive: false });
  const answers: FuzzAnswer[] = [];
  const end = Date.now() + options.budgetMs;
  let next = 0;
  const worker = async () => {
    while ((next < options.min || Date.now() < end) && next < options.max) {
      const i = next++;
      const req = make(i);
      let answer = await sendRaw(baseUrl, req, agent);
      // A reused keep-alive socket the server had just closed hangs up: retried once on a
      // connection of its own, where a second hang-up counts as the server's.
      if (answer.status === 0 && answer.error === 'socket hang up') {
        answer = await sendRaw(baseUrl, req, fresh);
      }
      answers.push(answer);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  agent.destroy();
  fresh.destroy();
  return answers;
}

export function describeAnswer(a: FuzzAnswer): string {
  const body = a.request.body ? a.request.body.subarray(0, 200).toString() : '';
  return `${a.status} ${a.error ?? ''} <- ${a.request.method} ${a.request.path.slice(0, 200)} ${JSON.stringify(a.request.headers).slice(0, 300)} ${body} => ${a.body.slice(0, 200)}`;
}
