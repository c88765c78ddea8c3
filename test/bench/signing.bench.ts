/**
 * Signing throughput: each case is one whole signed request, as the gateway client makes it,
 * against the independent `oauth-1.0a` library doing the same work and against bare node:crypto
 * doing only the hash or signature over an equal base string (the floor no implementation can
 * beat). The ratio to the floor is the cost of our base-string and header building.
 *
 *   node --import tsx test/bench/signing.bench.ts [--quick] [--json FILE]
 */
import {
  createHash,
  createHmac,
  createPrivateKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
} from 'node:crypto';
import { readFileSync } from 'node:fs';
import OAuth from 'oauth-1.0a';
import {
  computeControl,
  controlString,
  createOAuthSigner,
  type OAuthSigner,
  type Param,
  parseAuthorizationHeader,
  percentEncode,
} from '../../server/src/signing/index.js';
import { flag, isMain, writeJson } from './support/cli.js';
import { fmt, ratio, table } from './support/markdown.js';
import { measureOps, type OpsCase, type OpsOptions } from './support/timing.js';

const KEY_2048 = readFileSync(
  new URL('../server/signing/fixtures/test-rsa-2048.pkcs8.pem', import.meta.url),
  'utf8',
);
const LOGIN = 'shop-example-login';
const CONTROL_KEY = 'B2C0D5E7-3F41-4A8B-9C6D-0E1F2A3B4C5D';
// A loopback URL: nothing is sent, but no other address appears in the bench.
const URL_V2 = 'http://127.0.0.1:4000/paynet/api/v2/payout/1111';

/** A realistic 10-field body: what a payout or v4 operation sends beside the oauth_* fields. */
const BODY: Param[] = [
  ['client_orderid', 'ord-2025-01-17-000123'],
  ['amount', '10.42'],
  ['currency', 'EUR'],
  ['order_desc', 'Order 123 at Shop Example: 2 items'],
  ['first_name', 'John'],
  ['last_name', 'Smith'],
  ['email', 'john.smith@example.com'],
  ['ipaddress', '203.0.113.7'],
  ['redirect_url', 'https://shop.example/thank-you?order=123'],
  ['server_callback_url', 'https://pay.shop.example/callbacks/gateway'],
];
const SALE = {
  endpointId: '1111',
  client_orderid: 'ord-2025-01-17-000123',
  amount: '10.42',
  currency: 'EUR',
  email: 'john.smith@example.com',
};

export interface SigningCase {
  group: string;
  impl: 'ours' | 'ours, Math.random nonce (diagnostic)' | 'oauth-1.0a' | 'floor';
  what: string;
  opsPerSec: number;
  spread: number;
  rounds: number[];
}

export interface SigningResult {
  options: OpsOptions;
  rsa4096KeygenMs: number;
  cases: SigningCase[];
}

type Method = 'HMAC-SHA1' | 'RSA-SHA256';

function ourSigner(method: Method, pem: string): OAuthSigner {
  return method === 'HMAC-SHA1'
    ? createOAuthSigner({ method, consumerKey: LOGIN, controlKey: CONTROL_KEY })
    : createOAuthSigner({ method, consumerKey: LOGIN, privateKeyPem: pem });
}

/** oauth-1.0a with the same primitive and an already parsed key, so only the library differs. */
function theirSigner(method: Method, key: KeyObject | undefined): OAuth {
  return new OAuth({
    consumer: { key: LOGIN, secret: CONTROL_KEY },
    signature_method: method,
    hash_function: (base, signingKey) =>
      method === 'HMAC-SHA1'
        ? createHmac('sha1', signingKey).update(base).digest('base64')
        : sign('sha256', Buffer.from(base), key as KeyObject).toString('base64'),
  });
}

const BODY_DATA = Object.fromEntries(BODY);

/** Both implementations must agree on one fixed request, or the comparison means nothing. */
function assertSameSignature(method: Method, pem: string, key: KeyObject | undefined): void {
  const fixed = { clock: () => 1_700_000_000, nonce: () => 'fixed-nonce-0123456789' };
  const ours = createOAuthSigner(
    method === 'HMAC-SHA1'
      ? { method, consumerKey: LOGIN, controlKey: CONTROL_KEY, ...fixed }
      : { method, consumerKey: LOGIN, privateKeyPem: pem, ...fixed },
  ).sign({ url: URL_V2, params: BODY });
  const oauth = theirSigner(method, key);
  oauth.getNonce = fixed.nonce;
  oauth.getTimeStamp = fixed.clock;
  const theirs = oauth.authorize({ url: URL_V2, method: 'POST', data: BODY_DATA });
  const mine = parseAuthorizationHeader(ours.authorization).get('oauth_signature');
  if (mine !== theirs.oauth_signature) throw new Error(`${method}: oauth-1.0a disagrees with us`);
}

function oauthCases(group: string, method: Method, pem: string): OpsCase[] {
  const key = method === 'RSA-SHA256' ? createPrivateKey(pem) : undefined;
  assertSameSignature(method, pem, key);
  const ours = ourSigner(method, pem);
  const theirs = theirSigner(method, key);
  const base = ours.sign({ url: URL_V2, params: BODY }).baseString;
  const hmacKey = `${percentEncode(CONTROL_KEY)}&`;
  // Diagnostic for HMAC, where the hash is cheap: our signer with oauth-1.0a's kind of nonce
  // (Math.random, not crypto.randomBytes), to show what the secure nonce costs.
  const weakNonce = createOAuthSigner({
    method: 'HMAC-SHA1',
    consumerKey: LOGIN,
    controlKey: CONTROL_KEY,
    nonce: () => Math.random().toString(36).slice(2),
  });
  const diagnostic: OpsCase[] =
    method === 'HMAC-SHA1'
      ? [
          {
            name: `${group}|ours, Math.random nonce (diagnostic)`,
            run: () => weakNonce.sign({ url: URL_V2, params: BODY }).authorization,
          },
        ]
      : [];
  return [
    { name: `${group}|ours`, run: () => ours.sign({ url: URL_V2, params: BODY }).authorization },
    ...diagnostic,
    {
      name: `${group}|oauth-1.0a`,
      run: () =>
        theirs.toHeader(theirs.authorize({ url: URL_V2, method: 'POST', data: BODY_DATA }))
          .Authorization,
    },
    {
      name: `${group}|floor`,
      run:
        method === 'HMAC-SHA1'
          ? () => createHmac('sha1', hmacKey).update(base).digest('base64')
          : () => sign('sha256', Buffer.from(base), key as KeyObject).toString('base64'),
    },
  ];
}

function controlCases(): OpsCase[] {
  const input = controlString('sale', SALE) + CONTROL_KEY;
  return [
    { name: 'control (SHA-1), sale|ours', run: () => computeControl('sale', SALE, CONTROL_KEY) },
    {
      name: 'control (SHA-1), sale|floor',
      run: () => createHash('sha1').update(input, 'utf8').digest('hex'),
    },
  ];
}

const WHAT: Record<SigningCase['impl'], string> = {
  ours: 'whole signed request (computeControl / createOAuthSigner().sign)',
  'ours, Math.random nonce (diagnostic)': 'as ours, with a non-cryptographic nonce',
  'oauth-1.0a': 'whole signed request (authorize + toHeader)',
  floor: 'node:crypto hash/signature only, same base string',
};

export function runSigningBench(options: OpsOptions): SigningResult {
  const started = performance.now();
  // A 4096-bit key is generated, not stored: it shows what a merchant's larger key costs.
  const { privateKey: key4096 } = generateKeyPairSync('rsa', {
    modulusLength: 4096,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const rsa4096KeygenMs = performance.now() - started;
  const cases = [
    ...controlCases(),
    ...oauthCases('OAuth HMAC-SHA1', 'HMAC-SHA1', ''),
    ...oauthCases('OAuth RSA-SHA256 2048', 'RSA-SHA256', KEY_2048),
    ...oauthCases('OAuth RSA-SHA256 4096', 'RSA-SHA256', key4096),
  ];
  const measured = measureOps(cases, options);
  return {
    options,
    rsa4096KeygenMs,
    cases: measured.map((m) => {
      const [group = '', impl = 'ours'] = m.name.split('|');
      const kind = impl as SigningCase['impl'];
      return { group, impl: kind, what: WHAT[kind], ...m, name: undefined } as SigningCase;
    }),
  };
}

export function signingTable(result: SigningResult): string {
  const floorOf = (group: string) =>
    result.cases.find((c) => c.group === group && c.impl === 'floor')?.opsPerSec ?? 0;
  return table(
    ['case', 'implementation', 'ops/s (median)', 'rounds spread', 'ratio to floor'],
    result.cases.map((c) => [
      c.group,
      c.impl === 'floor' ? 'floor: bare node:crypto' : c.impl,
      c.opsPerSec,
      `${(c.spread * 100).toFixed(0)} %`,
      ratio(c.opsPerSec, floorOf(c.group)),
    ]),
  );
}

if (isMain(import.meta.url)) {
  const quick = flag('--quick');
  const options: OpsOptions = quick
    ? { warmupMs: 200, budgetMs: 300, rounds: 3 }
    : { warmupMs: 500, budgetMs: 1000, rounds: 5 };
  const result = runSigningBench(options);
  console.log(`RSA 4096 key generated in ${fmt(result.rsa4096KeygenMs)} ms`);
  console.log(signingTable(result));
  writeJson(result);
}
