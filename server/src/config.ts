/**
 * The one place that reads the environment (and an optional `.env` file). Everything is validated
 * once, with zod; a missing or malformed value stops start-up with one line naming the variable.
 * The rest of the server receives plain typed objects and never looks at process.env.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
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

/** Express's `trust proxy` setting: false (no proxy), a hop count, or trusted addresses. */
export type TrustProxy = false | number | string[];

/** Every variable, in the order they are checked (and documented in the README). */
const envSchema = z.object({
  GATEWAY_URL: z.preprocess(blankToUndefined, httpUrl.optional()),
  ENDPOINT_ID: z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^\d{1,18}$/, 'must be the numeric endpoint id')
      .optional(),
  ),
  MERCHANT_LOGIN: z.preprocess(blankToUndefined, z.string().min(1).optional()),
  MERCHANT_CONTROL_KEY: z.preprocess(blankToUndefined, z.string().min(1).optional()),
  MERCHANT_PRIVATE_KEY_FILE: z.preprocess(blankToUndefined, z.string().optional()),
  MERCHANT_API_KEY: z.preprocess(blankToUndefined, secret(16).optional()),
  JWT_SECRET: z.preprocess(blankToUndefined, secret(32).optional()),
  PUBLIC_URL: z.preprocess(blankToUndefined, httpUrl.optional()),
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
  WEBHOOK_URL: z.preprocess(blankToUndefined, httpUrl.optional()),
  WEBHOOK_SECRET: z.preprocess(blankToUndefined, secret(16).optional()),
  SANDBOX_PORT: z.preprocess(blankToUndefined, port.default(4000)),
  TRUST_PROXY: z.preprocess(blankToUndefined, trustProxy.optional()),
  LOG_LEVEL: z.preprocess(
    blankToUndefined,
    z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  ),
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
  logLevel: LogLevel;
  /** Proxies allowed to name the client's IP (the 3DS `browserIP`, per-IP rate limits). */
  trustProxy?: TrustProxy | undefined;
}

/** What main.ts needs beyond that: where to listen and what to store. */
export interface ServerConfig {
  port: number;
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
  trustProxy: TrustProxy;
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
  if (e.GATEWAY_URL) {
    for (const name of GATEWAY_VARS) {
      if (!e[name]) throw new ConfigError(name, 'is required when GATEWAY_URL is set');
    }
    for (const name of ['MERCHANT_API_KEY', 'JWT_SECRET', 'PUBLIC_URL'] as const) {
      if (!e[name]) throw new ConfigError(name, 'is required when GATEWAY_URL is set');
    }
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
    trustProxy: e.TRUST_PROXY ?? false,
  };
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
