/**
 * The one place that reads the environment (and an optional `.env` file). Everything is validated
 * once, with zod; a missing or malformed value stops start-up with one line naming the variable.
 * The rest of the server receives plain typed objects and never looks at process.env.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { isOneLine, ONE_LINE } from './checkout/control-characters.js';
import { PayCheckoutError } from './errors.js';

export type Env = Record<string, string | undefined>;

export class ConfigError extends PayCheckoutError {
  readonly variable: string;

  constructor(variable: string, message: string) {
    super('config', `${variable}: ${message}`);
    this.variable = variable;
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const blankToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .transform((u) => u.replace(/\/+$/, ''));
const port = z.coerce
  .number({ error: 'must be a port number' })
  .int('must be a port number')
  .min(0, 'must be a port number')
  .max(65535, 'must be a port number');
const secret = (min: number) => z.string().min(min, `must be at least ${min} characters`);

/**
 * This backend's base URL as shoppers' browsers reach it. The return pages the ACS and the gateway
 * send the shopper to live under it and postMessage the widget from its origin, which the widget
 * accepts only when it is the origin of its `backend` attribute: so it must be an origin a page
 * can have, plus at most a path prefix. No query or fragment (every URL is built by appending a
 * path to it), no user:password (browsers refuse to frame such URLs), not 0.0.0.0 or [::] (where
 * a server listens, not an address a page is opened at).
 */
const publicUrlSchema = httpUrl.transform((value, ctx) => {
  const url = new URL(value);
  const problem =
    url.search || value.includes('?')
      ? 'a query'
      : url.hash || value.includes('#')
        ? 'a fragment'
        : url.username || url.password
          ? 'a user name or password'
          : url.hostname === '0.0.0.0' || url.hostname === '[::]'
            ? `the host ${url.hostname}, an address to listen on, not one a browser opens`
            : undefined;
  if (problem) {
    ctx.addIssue({
      code: 'custom',
      message: `must be the backend's base URL as shoppers' browsers open it (scheme://host[:port][/path]), not with ${problem}: the return pages reach the widget from its origin`,
    });
    return z.NEVER;
  }
  return value;
});

/** Exact origins, comma separated: `https://shop.example,http://localhost:5173`. */
const origins = z.string().transform((value, ctx) => {
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const item of list) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(item);
    } catch {}
    if (
      !parsed ||
      !/^https?:$/.test(parsed.protocol) ||
      parsed.origin !== item.replace(/\/$/, '')
    ) {
      ctx.addIssue({
        code: 'custom',
        message: `"${item}" is not an exact origin (scheme://host[:port])`,
      });
      return z.NEVER;
    }
  }
  return list.map((item) => new URL(item).origin);
});

/**
 * Which proxies in front of us may say who the client is (`X-Forwarded-For`): a hop count (`1`:
 * one load balancer) or their addresses and subnets (`10.0.0.0/8, loopback`), as Express takes
 * them. `true` is refused: trusting every hop lets any client choose its own IP.
 */
const PROXY_TOKEN = /^(loopback|linklocal|uniquelocal|[0-9a-fA-F:.]+(\/\d{1,3})?)$/;
const trustProxy = z.string().transform((value, ctx): TrustProxy => {
  if (/^\d{1,2}$/.test(value.trim())) return Number(value.trim());
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = list.find((item) => !PROXY_TOKEN.test(item));
  if (bad !== undefined || list.length === 0) {
    ctx.addIssue({
      code: 'custom',
      message: `"${bad ?? value}" is neither a hop count nor a proxy address, subnet or name (loopback, linklocal, uniquelocal)`,
    });
    return z.NEVER;
  }
  return list;
});

/** An address to listen on: an IPv4 or IPv6 address (brackets optional) or a host name. */
const host = z
  .string()
  .trim()
  .regex(
    /^(\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:.]+|[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?)$/,
    'must be an IP address or a host name',
  )
  .transform((value) => value.replace(/^\[(.*)\]$/, '$1'));

/** An explicit yes or no: `1`/`true`/`yes`/`on` or `0`/`false`/`no`/`off`. */
const flag = z
  .string()
  .trim()
  .toLowerCase()
  .refine((value) => /^(1|true|yes|on|0|false|no|off)$/.test(value), 'must be 1 or 0')
  .transform((value) => /^(1|true|yes|on)$/.test(value));

/** Express's `trust proxy` setting: false (no proxy), a hop count, or trusted addresses. */
export type TrustProxy = false | number | string[];

/** How long events are kept (`GET /v1/events`) when the operator does not say. */
export const DEFAULT_EVENT_RETENTION_DAYS = 30;

/** Whole days, 1 to 3650 (ten years). */
const DAYS = 'must be a whole number of days from 1 to 3650';
const retentionDays = z.number({ error: DAYS }).int(DAYS).min(1, DAYS).max(3650, DAYS);

/** The numeric merchant endpoint id of the gateway. */
const endpointId = z.string().regex(/^\d{1,18}$/, 'must be the numeric endpoint id');

/** Exact origins as a list (the options object of library/options.ts), by the same rule. */
const originList = z
  .array(z.string())
  .transform((list) => list.join(','))
  .pipe(origins);

/**
 * The payment link page's look (PAY_PAGE_*): the merchant's name, a logo and three colours, set on
 * the page and as the element's CSS properties. Colours are hex only: they go into the page's
 * one style block, whose hash its CSP allows.
 */
const hexColor = z
  .string()
  .regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/, 'must be a hex colour, e.g. #1a73e8');
const merchantName = z.string().trim().min(1).max(80).refine(isOneLine, ONE_LINE);

export interface PaymentLinkPageConfig {
  merchantName?: string | undefined;
  logoUrl?: string | undefined;
  colors?: {
    primary?: string | undefined;
    background?: string | undefined;
    text?: string | undefined;
  };
}

// The rules the options object of `createPayCheckout` (library/options.ts) shares with the
// environment variables.
export {
  endpointId,
  hexColor,
  httpUrl,
  LOG_LEVELS,
  merchantName,
  originList,
  PROXY_TOKEN,
  publicUrlSchema,
  retentionDays,
  secret,
};

/** Every variable, in the order they are checked (and documented in docs/backend.md#configuration). */
const envSchema = z.object({
  GATEWAY_URL: z.preprocess(blankToUndefined, httpUrl.optional()),
  ENDPOINT_ID: z.preprocess(blankToUndefined, endpointId.optional()),
  MERCHANT_LOGIN: z.preprocess(blankToUndefined, z.string().min(1).optional()),
  MERCHANT_CONTROL_KEY: z.preprocess(blankToUndefined, z.string().min(1).optional()),
  MERCHANT_PRIVATE_KEY_FILE: z.preprocess(blankToUndefined, z.string().optional()),
  MERCHANT_API_KEY: z.preprocess(blankToUndefined, secret(16).optional()),
  JWT_SECRET: z.preprocess(blankToUndefined, secret(32).optional()),
  PUBLIC_URL: z.preprocess(blankToUndefined, publicUrlSchema.optional()),
  ALLOWED_ORIGINS: z.preprocess(blankToUndefined, origins.optional()),
  DATABASE_URL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
  ),
  DATA_DIR: z.preprocess(blankToUndefined, z.string().default('./data')),
  PORT: z.preprocess(blankToUndefined, port.default(3000)),
  HOST: z.preprocess(blankToUndefined, host.optional()),
  DEMO: z.preprocess(blankToUndefined, flag.default(false)),
  SANDBOX: z.preprocess(blankToUndefined, flag.default(false)),
  WEBHOOK_URL: z.preprocess(blankToUndefined, httpUrl.optional()),
  WEBHOOK_SECRET: z.preprocess(blankToUndefined, secret(16).optional()),
  EVENT_RETENTION_DAYS: z.preprocess(
    blankToUndefined,
    z.coerce.number({ error: DAYS }).pipe(retentionDays).default(DEFAULT_EVENT_RETENTION_DAYS),
  ),
  SANDBOX_PORT: z.preprocess(blankToUndefined, port.default(4000)),
  METRICS_TOKEN: z.preprocess(blankToUndefined, secret(16).optional()),
  MAX_CONNECTIONS: z.preprocess(
    blankToUndefined,
    z.coerce.number().int().min(1).max(1_000_000).default(1024),
  ),
  REQUEST_TIMEOUT_SECONDS: z.preprocess(
    blankToUndefined,
    z.coerce.number().int().min(1).max(600).default(20),
  ),
  TRUST_PROXY: z.preprocess(blankToUndefined, trustProxy.optional()),
  LOG_LEVEL: z.preprocess(
    blankToUndefined,
    z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  ),
  PAY_PAGE_MERCHANT_NAME: z.preprocess(blankToUndefined, merchantName.optional()),
  PAY_PAGE_LOGO_URL: z.preprocess(blankToUndefined, httpUrl.optional()),
  PAY_PAGE_COLOR_PRIMARY: z.preprocess(blankToUndefined, hexColor.optional()),
  PAY_PAGE_COLOR_BACKGROUND: z.preprocess(blankToUndefined, hexColor.optional()),
  PAY_PAGE_COLOR_TEXT: z.preprocess(blankToUndefined, hexColor.optional()),
});

export type ParsedEnv = z.output<typeof envSchema>;

/** The gateway credentials: all given (real gateway), or none (embedded sandbox). */
export interface GatewayConfig {
  url: string;
  endpointId: string;
  login: string;
  controlKey: string;
  /** Path of the RSA private key for the v4 (RSA-SHA256) operations; absent disables them. */
  privateKeyFile?: string | undefined;
}

/** What `createCheckoutApp` needs; tests build it directly. */
export interface CheckoutConfig {
  gateway: GatewayConfig;
  merchantApiKey: string;
  jwtSecret: string;
  /** Our own public base URL: return pages and callbacks are built from it. */
  publicUrl: string;
  allowedOrigins: string[];
  webhook?: { url: string; secret: string } | undefined;
  /**
   * Days an event is kept for `GET /v1/events` (with or without `webhook`); then purged, unless
   * still being retried. Default DEFAULT_EVENT_RETENTION_DAYS.
   */
  eventRetentionDays?: number | undefined;
  logLevel: LogLevel;
  /** Proxies allowed to name the client's IP (the 3DS `browserIP`, per-IP rate limits). */
  trustProxy?: TrustProxy | undefined;
  /** The gateway is a sandbox: everything the backend answers and sends says so (`livemode`). */
  testMode?: boolean | undefined;
  /** Bearer token of `GET /metrics`; absent: no such route. */
  metricsToken?: string | undefined;
  /** How the payment link page (`/pay/{id}`) looks; plain when absent. */
  paymentLinkPage?: PaymentLinkPageConfig | undefined;
}

/** What main.ts needs beyond that: where to listen and what to store. */
export interface ServerConfig {
  port: number;
  /** HOST, brackets removed; absent: the command's default (see `listenHost`). */
  host?: string | undefined;
  /** DEMO=1: `start` may run the demo shop against a real gateway (see `checkDemoAllowed`). */
  demo: boolean;
  /**
   * SANDBOX=1: `server` runs the embedded sandbox as its gateway, asked for by name. Without it
   * and without GATEWAY_URL it refuses to start (`start`, the dev command, implies it).
   */
  sandbox: boolean;
  sandboxPort: number;
  databaseUrl?: string | undefined;
  dataDir: string;
  logLevel: LogLevel;
  /** Absent: the embedded sandbox is the gateway, and main.ts completes the checkout config. */
  gateway?: GatewayConfig | undefined;
  merchantApiKey?: string | undefined;
  jwtSecret?: string | undefined;
  publicUrl: string;
  allowedOrigins: string[];
  webhook?: { url: string; secret: string } | undefined;
  /** EVENT_RETENTION_DAYS. */
  eventRetentionDays: number;
  trustProxy: TrustProxy;
  metricsToken?: string | undefined;
  /**
   * Open connections the backend's listener takes at most (MAX_CONNECTIONS), and how long a
   * client has to send a whole request, headers first (REQUEST_TIMEOUT_SECONDS): a client that
   * trickles bytes cannot hold connections open. A reverse proxy belongs in front all the same.
   */
  maxConnections: number;
  requestTimeoutMs: number;
  /** PAY_PAGE_*. */
  paymentLinkPage: PaymentLinkPageConfig;
}

const GATEWAY_VARS = ['ENDPOINT_ID', 'MERCHANT_LOGIN', 'MERCHANT_CONTROL_KEY'] as const;

/** Validates `env`; throws a ConfigError naming the first bad variable. */
export function parseServerConfig(env: Env, options: { cwd?: string } = {}): ServerConfig {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const issue = result.error.issues[0];
    const variable = String(issue?.path[0] ?? 'environment');
    const value = env[variable];
    const message =
      value === undefined
        ? 'is required'
        : (issue?.message ?? 'is malformed').replace(/^Invalid.*$/, 'is malformed');
    throw new ConfigError(variable, message);
  }
  const e = result.data;
  const cwd = options.cwd ?? process.cwd();

  let gateway: GatewayConfig | undefined;
  if (e.GATEWAY_URL && e.SANDBOX) {
    throw new ConfigError(
      'SANDBOX',
      'is set but so is GATEWAY_URL: run against the real gateway or the sandbox, not both',
    );
  }
  if (e.GATEWAY_URL) {
    for (const name of GATEWAY_VARS) {
      if (!e[name]) throw new ConfigError(name, 'is required when GATEWAY_URL is set');
    }
    for (const name of ['MERCHANT_API_KEY', 'JWT_SECRET', 'PUBLIC_URL'] as const) {
      if (!e[name]) throw new ConfigError(name, 'is required when GATEWAY_URL is set');
    }
    // Card data and the callback URL travel over these: only TLS, except to this machine.
    requireHttps('GATEWAY_URL', e.GATEWAY_URL);
    requireHttps('PUBLIC_URL', e.PUBLIC_URL as string);
    // Events carry the customer's order data and the masked card: private in transit too.
    if (e.WEBHOOK_URL) requireHttps('WEBHOOK_URL', e.WEBHOOK_URL);
    gateway = {
      url: e.GATEWAY_URL,
      endpointId: e.ENDPOINT_ID as string,
      login: e.MERCHANT_LOGIN as string,
      controlKey: e.MERCHANT_CONTROL_KEY as string,
      privateKeyFile: e.MERCHANT_PRIVATE_KEY_FILE && resolve(cwd, e.MERCHANT_PRIVATE_KEY_FILE),
    };
    if (gateway.privateKeyFile && !existsSync(gateway.privateKeyFile)) {
      throw new ConfigError('MERCHANT_PRIVATE_KEY_FILE', `no file at ${gateway.privateKeyFile}`);
    }
  } else {
    for (const name of [...GATEWAY_VARS, 'MERCHANT_PRIVATE_KEY_FILE'] as const) {
      if (e[name])
        throw new ConfigError(
          name,
          'is set but GATEWAY_URL is not (set both, or neither for the sandbox)',
        );
    }
  }
  if (e.WEBHOOK_URL && !e.WEBHOOK_SECRET) {
    throw new ConfigError('WEBHOOK_SECRET', 'is required when WEBHOOK_URL is set');
  }
  const publicUrl = e.PUBLIC_URL ?? `http://localhost:${e.PORT}`;
  return {
    port: e.PORT,
    host: e.HOST,
    demo: e.DEMO,
    sandbox: e.SANDBOX,
    sandboxPort: e.SANDBOX_PORT,
    databaseUrl: e.DATABASE_URL,
    dataDir: resolve(cwd, e.DATA_DIR),
    logLevel: e.LOG_LEVEL,
    gateway,
    merchantApiKey: e.MERCHANT_API_KEY,
    jwtSecret: e.JWT_SECRET,
    publicUrl,
    // The merchant page is on the backend's own origin by default (the demo page).
    allowedOrigins: e.ALLOWED_ORIGINS ?? [new URL(publicUrl).origin],
    webhook: e.WEBHOOK_URL ? { url: e.WEBHOOK_URL, secret: e.WEBHOOK_SECRET as string } : undefined,
    eventRetentionDays: e.EVENT_RETENTION_DAYS,
    trustProxy: e.TRUST_PROXY ?? false,
    metricsToken: e.METRICS_TOKEN,
    maxConnections: e.MAX_CONNECTIONS,
    requestTimeoutMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
    paymentLinkPage: {
      merchantName: e.PAY_PAGE_MERCHANT_NAME,
      logoUrl: e.PAY_PAGE_LOGO_URL,
      colors: {
        primary: e.PAY_PAGE_COLOR_PRIMARY,
        background: e.PAY_PAGE_COLOR_BACKGROUND,
        text: e.PAY_PAGE_COLOR_TEXT,
      },
    },
  };
}

/** localhost, 127.0.0.0/8 or [::1] (as `URL.hostname` spells them). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** `when`: the condition that makes TLS required, for the message (empty: always). */
export function requireHttps(
  variable: string,
  url: string,
  when = ' when GATEWAY_URL is set',
): void {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && !isLoopbackHost(parsed.hostname)) {
    throw new ConfigError(
      variable,
      `must be an https: URL${when} (http: only for localhost, 127.0.0.0/8 or [::1])`,
    );
  }
}

export type Command = 'start' | 'server' | 'sandbox';

/**
 * Where the backend listens: HOST, else 127.0.0.1 for `start` (a demo on a developer's machine)
 * and every interface for `server` (a deployment, usually behind a load balancer or in a
 * container whose port is published). `undefined` is Node's "all interfaces".
 */
export function listenHost(config: ServerConfig, command: Command): string | undefined {
  return config.host ?? (command === 'start' ? '127.0.0.1' : undefined);
}

/**
 * The backend's PGlite folder, when it has no DATABASE_URL: DATA_DIR/pglite when it runs its own
 * sandbox (one database for both, schemas `checkout` and `sandbox`), else DATA_DIR/checkout.
 */
export function backendPgliteFolder(config: ServerConfig): string {
  return join(config.dataDir, config.gateway ? 'checkout' : 'pglite');
}

/**
 * The PGlite data folder a command opens, or undefined when it opens none: at most one per
 * process. The sandbox alone keeps DATA_DIR/sandbox; so does an embedded sandbox when the backend
 * is on PostgreSQL (DATABASE_URL).
 */
export function pgliteFolder(config: ServerConfig, command: Command): string | undefined {
  const sandbox = join(config.dataDir, 'sandbox');
  if (command === 'sandbox') return config.databaseUrl ? undefined : sandbox;
  if (config.databaseUrl) return config.gateway ? undefined : sandbox;
  return backendPgliteFolder(config);
}

/**
 * `server` without a gateway would run the embedded sandbox, which approves real cards and moves
 * no money: a secrets mount that failed drops every gateway variable at once. It runs only when
 * SANDBOX=1 names it (`start`, the dev command, implies it). Throws a ConfigError naming
 * GATEWAY_URL otherwise.
 */
export function requireGatewayOrSandbox(config: ServerConfig, command: Command): void {
  if (config.gateway || command !== 'server' || config.sandbox) return;
  throw new ConfigError(
    'GATEWAY_URL',
    'is required: without a gateway `server` would run the embedded sandbox, which approves test and real cards alike and moves no money. Set GATEWAY_URL and the merchant variables, or SANDBOX=1 to run the sandbox on purpose',
  );
}

/**
 * The demo shop relays captures, returns and payouts with the merchant API key to whoever can
 * reach it, so it runs only under `start`, and against a real gateway only when DEMO=1 asks for
 * it. Throws a ConfigError naming DEMO otherwise (or PUBLIC_URL, when the demo's widget could not
 * hear the return pages); returns whether to mount the demo.
 */
export function demoAllowed(config: ServerConfig, command: Command): boolean {
  if (command !== 'start') return false;
  if (config.gateway && !config.demo) {
    throw new ConfigError(
      'DEMO',
      'not set, and GATEWAY_URL is a real gateway: the demo shop would let anyone who reaches it capture, return and pay out with the merchant API key. Run `npm run server` for the backend alone, or set DEMO=1 to run the demo anyway',
    );
  }
  // The demo page is served at this backend's root and gives its widget the page's own origin as
  // `backend`: the return pages reach that widget only when PUBLIC_URL is that origin, no path.
  const path = new URL(config.publicUrl).pathname;
  if (path !== '/') {
    throw new ConfigError(
      'PUBLIC_URL',
      `must be an origin alone (scheme://host[:port]) with the demo shop, not with the path ${path}: the demo page is served at this backend's root and its widget takes the page's origin as the backend`,
    );
  }
  return true;
}

/**
 * The process environment, after loading `.env` from `cwd` when there is one. Variables already
 * set in the environment win over the file (loadEnvFile does not overwrite them).
 */
export function readEnvironment(cwd: string = process.cwd()): Env {
  const file = resolve(cwd, '.env');
  if (existsSync(file)) process.loadEnvFile(file);
  return { ...process.env };
}
