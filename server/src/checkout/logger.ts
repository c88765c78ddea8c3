/**
 * Structured JSON logs (pino). Redaction is the logger's job, not each call site's: pino's own
 * `redact` paths remove the well-known places (headers, card objects, gateway form fields), and a
 * `log` formatter walks every record once more, censoring secret-named keys at any depth and any
 * run of 13-19 digits that could be a card number, wherever it hides (messages, errors, URLs).
 */
import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '../config.js';

export type { Logger } from 'pino';

const CENSOR = '[redacted]';

/** Keys whose values are secret or card data whatever object they sit in (compared lowercased). */
const SECRET_KEYS = new Set([
  'authorization',
  'cookie',
  'set-cookie',
  'card',
  'number',
  'pan',
  'cvc',
  'cvv',
  'cvv2',
  'expmonth',
  'expyear',
  'expire_month',
  'expire_year',
  'credit_card_number',
  'card_printed_name',
  'holder',
  'token',
  'password',
  'secret',
  'control',
  'controlkey',
  'merchantcontrolkey',
  'merchant_control',
  'jwtsecret',
  'merchantapikey',
  'apikey',
  'privatekey',
  'oauth_signature',
  'pares',
  'cres',
  'creq',
  'pareq',
]);

/** pino's fast path for the usual spots; the formatter below catches the rest. */
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'body.card',
  'req.body.card',
  'card',
  'request.credit_card_number',
  'request.cvv2',
  'config.merchantApiKey',
  'config.jwtSecret',
];

/** Card-number-like digit runs (optionally spaced or dashed), e.g. "4111 1111 1111 1111". */
const PAN_LIKE = /\b\d(?:[ -]?\d){12,18}\b/g;

export function scrubText(text: string): string {
  return text.replace(PAN_LIKE, CENSOR);
}

/** A deep copy with secrets censored; cycles and depth are bounded. */
export function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 8) return '[deep]';
  if (value instanceof Error) return scrubError(value);
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = SECRET_KEYS.has(key.toLowerCase()) ? CENSOR : scrub(item, depth + 1);
  }
  return out;
}

/** `err` / `error` may be anything a call site had at hand: only real errors get the Error shape. */
function serializeError(value: unknown): unknown {
  return value instanceof Error ? scrubError(value) : scrub(value);
}

function scrubError(error: Error): Record<string, unknown> {
  const code = (error as { code?: unknown }).code;
  return {
    type: error.name,
    message: scrubText(error.message),
    ...(typeof code === 'string' ? { code } : {}),
    stack: error.stack ? scrubText(error.stack) : undefined,
  };
}

export interface LoggerOptions {
  level: LogLevel;
  /** Where lines go (tests capture them); stdout by default. */
  destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      base: { service: 'pay-checkout' },
      redact: { paths: REDACT_PATHS, censor: CENSOR },
      serializers: { err: serializeError, error: serializeError },
      formatters: {
        log: (record) => scrub(record) as Record<string, unknown>,
      },
      hooks: {
        // The message string itself is not part of `record`: scrub it here.
        logMethod(args, method) {
          const scrubbed = args.map((arg) => (typeof arg === 'string' ? scrubText(arg) : arg));
          method.apply(this, scrubbed as Parameters<typeof method>);
        },
      },
    },
    options.destination ?? pino.destination({ sync: false }),
  );
}
