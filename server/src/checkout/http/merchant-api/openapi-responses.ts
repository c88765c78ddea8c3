/**
 * The answers every merchant route can give besides its own, written once under
 * `components.responses`, and how a route's own list is completed with them. Each error answer
 * has the one error body (`ErrorResponse`), so a generated client reads `error.field` of a 400 as
 * it reads any other. The server gives these from layers every route passes through: the API key
 * (401, and 429 for requests without a valid key), the JSON parser (400, 413), the
 * Idempotency-Key (400, 409, 422: idempotency.ts), the validation (400), the error middleware
 * (500, 502: errors.ts) and, in the library, an app not started yet (503).
 */
type Json = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });

const RETRY_AFTER = { $ref: '#/components/headers/Retry-After' };

/** `components.headers` and `components.responses`, given the error body's `$ref`. */
export function sharedResponses(errorBody: Json) {
  const error = (description: string, extra: Json = {}) => ({
    description,
    content: { 'application/json': { schema: errorBody } },
    ...extra,
  });
  return {
    headers: {
      'Retry-After': {
        description: 'Seconds to wait before trying again.',
        schema: { type: 'integer', minimum: 0 },
      },
    },
    responses: {
      BadRequest: error(
        'Invalid input (`validation`): `error.field` names the field (a dotted path such as `customer.email`, `body` for a body that is not JSON, `Idempotency-Key` for that header), `error.message` says what is wrong.',
      ),
      Unauthorized: error('Missing or invalid API key (`unauthorized`).'),
      NotFound: error('No such resource (`not-found`).'),
      PayloadTooLarge: error('The body is larger than 32 KB (`payload-too-large`).'),
      RateLimited: error(
        'Too many requests without a valid API key from this address (`rate-limited`); a request with the valid key is never limited.',
        { headers: { 'Retry-After': RETRY_AFTER } },
      ),
      InternalError: error(
        'An unexpected error (`internal`); `error.requestId` finds it in the logs.',
      ),
      BadGateway: error('The payment gateway could not be reached or failed (`gateway`).'),
      Unavailable: error(
        'The backend cannot serve now (`unavailable`: a library app not started yet); try again later.',
      ),
    },
  };
}

/** What the Idempotency-Key layer adds to a POST's 409 and 422 (idempotency.ts). */
const IDEMPOTENCY = {
  409: '`idempotency-conflict`: a request with this Idempotency-Key is still running; send it again a little later.',
  422: '`idempotency-conflict`: this Idempotency-Key was used with another body.',
} as const;

/**
 * A route's own answers (`own`: status to its OpenAPI response) with every shared one it lacks:
 * 400, 401, 413, 429, 500, 502, 503 everywhere; 404 where a path names a resource; the
 * Idempotency-Key's 409 and 422 on every POST, told apart from the route's own by `error.code`.
 */
export function completeResponses(
  own: Record<string, Json>,
  options: { post: boolean; hasPathParams: boolean; errorBody: Json },
): Record<string, Json> {
  const all: Record<string, Json> = { ...own };
  const withError = (status: string, description: string) => {
    const mine = all[status];
    all[status] = mine
      ? { ...mine, description: `${String(mine.description)} Or ${description}` }
      : {
          description: description.charAt(0).toUpperCase() + description.slice(1),
          content: { 'application/json': { schema: options.errorBody } },
        };
  };
  if (options.post) {
    withError('409', IDEMPOTENCY[409]);
    withError('422', IDEMPOTENCY[422]);
  }
  // The JSON parser reads a body on any method (a GET may carry one).
  all['413'] ??= ref('PayloadTooLarge');
  if (all['409']) all['409'] = { ...all['409'], headers: { 'Retry-After': RETRY_AFTER } };
  all['400'] ??= ref('BadRequest');
  all['401'] ??= ref('Unauthorized');
  if (options.hasPathParams) all['404'] ??= ref('NotFound');
  all['429'] ??= ref('RateLimited');
  all['500'] ??= ref('InternalError');
  all['502'] ??= ref('BadGateway');
  all['503'] ??= ref('Unavailable');
  return Object.fromEntries(Object.entries(all).sort(([a], [b]) => a.localeCompare(b)));
}
