/**
 * Every answer of the merchant API that a test's backend gives, checked against the backend's own
 * OpenAPI document (`GET /v1/openapi.json`) by Ajv (JSON Schema 2020-12, the dialect of OpenAPI
 * 3.1): its status must be one the operation lists, and its JSON body must match that status's
 * schema. What does not is kept as a violation; the test stack fails the suite with them when the
 * backend closes (loopback-stack.ts), so a test that only looked at a status still proves the
 * answer is what a generated client can read.
 *
 * Not operations, so not checked: the document itself, a path the API does not have (404), a
 * method a path does not take (405), OPTIONS and HEAD.
 */
import { get, type IncomingMessage, type ServerResponse } from 'node:http';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: its default export is the module object under some loaders.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as (ajv: Ajv2020) => void;

type Json = Record<string, unknown>;

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, Json> }>>;
  components: { responses?: Record<string, Json> };
}

interface Operation {
  pattern: RegExp;
  literal: boolean;
  method: string;
  path: string;
}

const pointer = (...segments: string[]) =>
  segments.map((s) => `/${s.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');

/**
 * What every backend serving one document shares: the Ajv instance that holds the document and
 * the validators it compiled. A test process starts many backends (one per suite, more for
 * restarts) with one document: Ajv, its formats and the validators made again for each backend
 * took 0.46 s of CPU for a checker that compiled them all, 0.05 s each once shared (2026-11-29).
 */
interface CompiledDocument {
  readonly doc: OpenApiDocument;
  readonly ajv: Ajv2020;
  readonly operations: Operation[];
  /** `METHOD path status` → its validator, null when the status lists no JSON body. */
  readonly validators: Map<string, ValidateFunction | null>;
}

/**
 * By the document's text without its `servers` (each backend's own public URL, which no schema
 * refers to): per test process, so one backend's document is compiled once.
 */
const compiledDocuments = new Map<string, CompiledDocument>();

function compiledDocument(doc: OpenApiDocument): CompiledDocument {
  const { servers: _servers, ...schemas } = doc as OpenApiDocument & { servers?: unknown };
  const key = JSON.stringify(schemas);
  const known = compiledDocuments.get(key);
  if (known) return known;
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats(ajv);
  ajv.addSchema(doc as unknown as Json, 'openapi');
  const compiled: CompiledDocument = {
    doc,
    ajv,
    validators: new Map(),
    operations: Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => ({
        path,
        method: method.toUpperCase(),
        literal: !path.includes('{'),
        pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
      })),
    ),
  };
  compiledDocuments.set(key, compiled);
  return compiled;
}

export class AnswerChecker {
  readonly violations: string[] = [];
  /** `METHOD /v1/path-template status` of every answer checked (what a walk of routes covered). */
  readonly seen = new Set<string>();
  private readonly ajv: Ajv2020;
  private readonly operations: Operation[];
  private readonly validators: Map<string, ValidateFunction | null>;
  private readonly doc: OpenApiDocument;

  constructor(doc: OpenApiDocument) {
    const compiled = compiledDocument(doc);
    this.doc = compiled.doc;
    this.ajv = compiled.ajv;
    this.operations = compiled.operations;
    this.validators = compiled.validators;
  }

  /**
   * Reads the document on a connection of its own, closed after: fetch's pool would keep a
   * socket to the backend that dies with it, and a test that starts another backend on the same
   * port (a restart) would get that dead socket for its first request.
   */
  static async load(baseUrl: string): Promise<AnswerChecker> {
    const text = await new Promise<string>((resolve, reject) => {
      get(`${baseUrl}/v1/openapi.json`, { agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve(body));
        res.on('error', reject);
      }).on('error', reject);
    });
    return new AnswerChecker(JSON.parse(text) as OpenApiDocument);
  }

  /** The operation a request reaches, as the router picks it (a path without parameters first). */
  operationOf(method: string, path: string): Operation | undefined {
    const matching = this.operations.filter((op) => op.pattern.test(path));
    const literal = matching.filter((op) => op.literal);
    return (literal.length > 0 ? literal : matching).find((op) => op.method === method);
  }

  /** The validator of an answer's body, or null when the status lists no JSON body. */
  private validator(op: Operation, status: string): ValidateFunction | null | undefined {
    const key = `${op.method} ${op.path} ${status}`;
    if (this.validators.has(key)) return this.validators.get(key);
    const listed = this.doc.paths[op.path]?.[op.method.toLowerCase()]?.responses[status];
    if (!listed) return undefined;
    let at = pointer('paths', op.path, op.method.toLowerCase(), 'responses', status);
    let response = listed;
    const ref = response.$ref;
    if (typeof ref === 'string') {
      const name = ref.replace('#/components/responses/', '');
      response = this.doc.components.responses?.[name] ?? {};
      at = pointer('components', 'responses', name);
    }
    const content = response.content as Record<string, unknown> | undefined;
    const validate = content?.['application/json']
      ? this.ajv.compile({
          $ref: `openapi#${at}${pointer('content', 'application/json', 'schema')}`,
        })
      : null;
    this.validators.set(key, validate);
    return validate;
  }

  /** Checks one finished answer. */
  check(method: string, url: string, status: number, contentType: string, body: string): void {
    const path = new URL(url, 'http://x').pathname;
    if (!path.startsWith('/v1/') || path === '/v1/openapi.json') return;
    const op = this.operationOf(method, path);
    if (!op) return;
    const where = `${method} ${path} -> ${status}`;
    this.seen.add(`${op.method} ${op.path} ${status}`);
    const validate = this.validator(op, String(status));
    if (validate === undefined) {
      this.violations.push(`${where}: status not in the document (${body.slice(0, 200)})`);
      return;
    }
    if (validate === null) return;
    if (!contentType.startsWith('application/json')) {
      this.violations.push(`${where}: ${contentType || 'no content type'}, not JSON`);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      this.violations.push(`${where}: body is not JSON`);
      return;
    }
    if (!validate(parsed)) {
      const errors = this.ajv.errorsText(validate.errors);
      this.violations.push(`${where}: body does not match the document: ${errors}`);
    }
  }

  /**
   * A `request` listener for the backend's HTTP server, added before the app's: it keeps what
   * the app writes and checks it once the answer is finished.
   */
  readonly watch = (req: IncomingMessage, res: ServerResponse): void => {
    // As the request came: Express rewrites `req.url` inside a mounted router.
    const { method = 'GET', url = '/' } = req;
    if (!url.startsWith('/v1/') || method === 'HEAD' || method === 'OPTIONS') return;
    const chunks: Buffer[] = [];
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      chunks.push(
        Buffer.isBuffer(chunk)
          ? chunk
          : Buffer.from(
              String(chunk),
              typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8',
            ),
      );
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.write = ((...args: unknown[]) => {
      keep(args[0], args[1]);
      return write(...args);
    }) as typeof res.write;
    res.end = ((...args: unknown[]) => {
      keep(args[0], args[1]);
      return end(...args);
    }) as typeof res.end;
    res.on('finish', () => {
      const type = res.getHeader('content-type');
      try {
        this.check(
          method,
          url,
          res.statusCode,
          typeof type === 'string' ? type : '',
          Buffer.concat(chunks).toString('utf8'),
        );
      } catch (error) {
        this.violations.push(`${method} ${url}: the check failed: ${String(error)}`);
      }
    });
  };
}
