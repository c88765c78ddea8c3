/**
 * A WebDriver classic client (W3C WebDriver, HTTP + JSON), just the commands the engine matrix
 * uses: plain fetch, no dependency. WebKitGTK has no BiDi and no CDP: WebKitWebDriver speaks
 * only this.
 */

/** The spec's key for an element reference, and for a shadow root reference. */
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';
const SHADOW = 'shadow-6066-11e4-a52e-4f735466cecf';

export interface ElementRef {
  [ELEMENT]: string;
}

/** A command the driver refused, with the spec's error code (`no such element`, ...). */
export class WebDriverError extends Error {
  readonly code: string;
  constructor(code: string, message: string, command: string) {
    super(`${command}: ${code}: ${message}`);
    this.code = code;
  }
}

export interface SessionOptions {
  /** The driver's base URL, e.g. http://127.0.0.1:4444 */
  driverUrl: string;
  capabilities: Record<string, unknown>;
  /** Page load and script limits, ms. */
  timeouts?: { pageLoad?: number; script?: number };
  /** How long the browser may take to start and connect. */
  startMs?: number;
}

/**
 * No command of ours takes this long (page loads are bounded at 45 s, scripts at 15 s): one that
 * does is a driver stuck on a page gone away, and fails rather than wait out fetch's 300 s.
 */
const COMMAND_MS = 60_000;

async function call(
  url: string,
  method: 'GET' | 'POST' | 'DELETE',
  body?: unknown,
  timeoutMs = COMMAND_MS,
): Promise<unknown> {
  const command = `${method} ${new URL(url).pathname}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      signal: AbortSignal.timeout(timeoutMs),
      headers: { 'content-type': 'application/json; charset=utf-8' },
      // The spec wants a JSON object on every POST, `{}` when the command takes nothing.
      body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
    });
  } catch (error) {
    const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new WebDriverError('no answer', why, command);
  }
  const text = await response.text();
  let value: unknown;
  try {
    value = (JSON.parse(text) as { value: unknown }).value;
  } catch {
    throw new WebDriverError(
      'unknown error',
      `not JSON (${response.status}): ${text.slice(0, 200)}`,
      command,
    );
  }
  if (!response.ok) {
    const error = (value ?? {}) as { error?: string; message?: string };
    throw new WebDriverError(
      error.error ?? `HTTP ${response.status}`,
      error.message ?? text.slice(0, 200),
      command,
    );
  }
  return value;
}

/** One browser session: every command of the spec the matrix needs, one method each. */
export class WebDriverSession {
  private readonly base: string;
  readonly capabilities: Record<string, unknown>;

  private constructor(base: string, capabilities: Record<string, unknown>) {
    this.base = base;
    this.capabilities = capabilities;
  }

  static async create(options: SessionOptions): Promise<WebDriverSession> {
    const value = (await call(
      `${options.driverUrl}/session`,
      'POST',
      { capabilities: options.capabilities },
      options.startMs,
    )) as { sessionId: string; capabilities: Record<string, unknown> };
    const session = new WebDriverSession(
      `${options.driverUrl}/session/${value.sessionId}`,
      value.capabilities,
    );
    if (options.timeouts) await session.post('/timeouts', options.timeouts);
    return session;
  }

  private post(path: string, body?: unknown): Promise<unknown> {
    return call(`${this.base}${path}`, 'POST', body);
  }

  private get(path: string): Promise<unknown> {
    return call(`${this.base}${path}`, 'GET');
  }

  /** Navigate To: resolves once the new page has loaded (the session's page load strategy). */
  async navigate(url: string): Promise<void> {
    await this.post('/url', { url });
  }

  async currentUrl(): Promise<string> {
    return (await this.get('/url')) as string;
  }

  /** The browser's Back: resolves once the page shown has loaded. */
  async back(): Promise<void> {
    await this.post('/back');
  }

  /** Find Element in the current browsing context's document, by CSS selector. */
  async findElement(css: string): Promise<ElementRef> {
    return (await this.post('/element', { using: 'css selector', value: css })) as ElementRef;
  }

  /** Get Element Shadow Root: the open shadow root of a host element. */
  async shadowRoot(host: ElementRef): Promise<string> {
    const value = (await this.get(`/element/${host[ELEMENT]}/shadow`)) as Record<string, string>;
    const id = value[SHADOW];
    if (!id) throw new WebDriverError('no such shadow root', 'no shadow root', 'shadow');
    return id;
  }

  /** Find Element From Shadow Root, by CSS selector. */
  async findInShadow(shadowId: string, css: string): Promise<ElementRef> {
    return (await this.post(`/shadow/${shadowId}/element`, {
      using: 'css selector',
      value: css,
    })) as ElementRef;
  }

  async click(element: ElementRef): Promise<void> {
    await this.post(`/element/${element[ELEMENT]}/click`);
  }

  /**
   * A mouse click at the element's centre through Perform Actions (then Release Actions), not
   * Element Click: WebKitWebDriver's Element Click hit-tests the point and, for an input in a
   * shadow root, finds the host there and answers "element click intercepted".
   */
  async mouseClick(element: ElementRef): Promise<void> {
    await this.post('/actions', {
      actions: [
        {
          type: 'pointer',
          id: 'mouse',
          parameters: { pointerType: 'mouse' },
          actions: [
            { type: 'pointerMove', origin: element, x: 0, y: 0 },
            { type: 'pointerDown', button: 0 },
            { type: 'pointerUp', button: 0 },
          ],
        },
      ],
    });
    await call(`${this.base}/actions`, 'DELETE');
  }

  /** Element Send Keys: types `text` into the element, key by key, as the keyboard would. */
  async sendKeys(element: ElementRef, text: string): Promise<void> {
    await this.post(`/element/${element[ELEMENT]}/value`, { text });
  }

  /**
   * Execute Script: `body` is a function body called with `args` (element references arrive as
   * elements); a returned promise is awaited by the driver.
   */
  async execute<R>(body: string, args: unknown[] = []): Promise<R> {
    return (await this.post('/execute/sync', { script: body, args })) as R;
  }

  /** Switch To Frame: the frame element's browsing context becomes the current one. */
  async switchToFrame(frame: ElementRef): Promise<void> {
    await this.post('/frame', { id: frame });
  }

  /** Back to the top-level document (Switch To Frame with null). */
  async switchToTop(): Promise<void> {
    await this.post('/frame', { id: null });
  }

  async setWindowSize(width: number, height: number): Promise<void> {
    await this.post('/window/rect', { width, height });
  }

  /** Take Screenshot: the top-level viewport as a PNG. */
  async screenshot(): Promise<Uint8Array> {
    return Buffer.from((await this.get('/screenshot')) as string, 'base64');
  }

  async delete(): Promise<void> {
    await call(this.base, 'DELETE');
  }
}
