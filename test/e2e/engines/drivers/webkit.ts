/**
 * WebKitGTK, the engine of Safari and of every browser on iOS: WebKitWebDriver (WebDriver classic)
 * starting MiniBrowser with `--automation --enable-itp`, under `xvfb-run -a` (MiniBrowser needs a
 * display). ITP is what Safari ships: without it a cross-site frame still gets its first-party
 * cookies, with it none. Each tab is a WebDriver session of its own, so a MiniBrowser of its own:
 * nothing a shopper left carries over to the next.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { scaled } from '../../../support/time-scale.js';
import { freePort } from '../../support/stack.js';
import { type EngineBinaries, requireBinary } from './binaries.js';
import { killWithUs } from './processes.js';
import {
  DEFAULT_WAIT_MS,
  describeTarget,
  type Engine,
  type Hop,
  type PageScript,
  pollUntil,
  READY_ELEMENT,
  type Scheme,
  type Tab,
  type Target,
} from './tab.js';
import { type ElementRef, WebDriverSession } from './webdriver.js';

const VIEWPORT = { width: 1280, height: 900 };

/** Starts WebKitWebDriver under xvfb-run in a process group of its own (Xvfb is its child). */
async function startDriver(bins: EngineBinaries): Promise<{ url: string; process: ChildProcess }> {
  const xvfbRun = requireBinary(bins, 'xvfbRun');
  const driver = requireBinary(bins, 'webkitDriver');
  const port = await freePort();
  const child = spawn(xvfbRun, ['-a', driver, `--port=${port}`], {
    // A process group of its own, so one signal ends xvfb-run, Xvfb, the driver and MiniBrowser.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  killWithUs(child, true);
  let output = '';
  child.stdout?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    output += c.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  // Ready when /status says so; the driver prints nothing to wait for.
  try {
    await pollUntil(
      async () => {
        if (child.exitCode !== null) return 'exited';
        const status = (await (await fetch(`${url}/status`)).json()) as {
          value?: { ready?: boolean };
        };
        return status.value?.ready ? 'ready' : null;
      },
      `WebKitWebDriver on ${url}`,
      scaled(20_000),
    ).then((state) => {
      if (state === 'exited') throw new Error(`xvfb-run ${driver} exited with ${child.exitCode}`);
    });
  } catch (error) {
    await stopGroup(child);
    throw new Error(`${String(error)}\n${output}`);
  }
  return { url, process: child };
}

/** The child of `pid` running `name` (Linux's /proc), or 0. */
async function childNamed(pid: number, name: string): Promise<number> {
  const children = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  for (const child of children.trim().split(/\s+/).filter(Boolean)) {
    const comm = await readFile(`/proc/${child}/comm`, 'utf8').catch(() => '');
    if (comm.trim() === name) return Number(child);
  }
  return 0;
}

/**
 * Ends what we started: WebKitWebDriver first, so xvfb-run, seeing its command end, stops Xvfb
 * and removes its temporary folder as it does on a normal exit (a signal to the whole group
 * kills the shell before its clean-up); then the group, for anything left (a MiniBrowser).
 */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (!child.pid || child.exitCode !== null || child.signalCode !== null) return;
  const pid = child.pid;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const driverPid = await childNamed(pid, 'WebKitWebDriver');
  if (driverPid) {
    try {
      process.kill(driverPid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is gone already: the normal end.
  }
  await exited;
}

class WebKitTab implements Tab {
  private readonly session: WebDriverSession;

  constructor(session: WebDriverSession) {
    this.session = session;
  }

  async goto(url: string): Promise<void> {
    await this.session.navigate(url);
  }

  async url(): Promise<string> {
    return this.session.currentUrl();
  }

  async run<R>(script: PageScript, arg?: unknown): Promise<R> {
    await this.session.switchToTop();
    return this.session.execute<R>(`return (${script})(arguments[0]);`, [arg ?? null]);
  }

  async waitFor<R>(script: PageScript, arg: unknown, what: string, timeoutMs = DEFAULT_WAIT_MS) {
    return pollUntil<R>(
      async () => {
        await this.session.switchToTop();
        return this.session.execute<R | null>(`return (${script})(arguments[0]);`, [arg ?? null]);
      },
      what,
      timeoutMs,
    );
  }

  /** Waits for `hop` in the current browsing context, then finds it through the driver. */
  async #element(hop: Hop, what: string): Promise<ElementRef> {
    await pollUntil(
      () => this.session.execute<boolean>(`return (${READY_ELEMENT})(arguments[0]);`, [hop]),
      what,
      DEFAULT_WAIT_MS,
    );
    if (!hop.host) return this.session.findElement(hop.css);
    const root = await this.session.shadowRoot(await this.session.findElement(hop.host));
    return this.session.findInShadow(root, hop.css);
  }

  /** The target's element, the current browsing context switched to its frame. */
  async #resolve(target: Target): Promise<ElementRef> {
    const what = describeTarget(target);
    await this.session.switchToTop();
    for (const frame of target.frames ?? []) {
      await this.session.switchToFrame(await this.#element(frame, what));
    }
    return this.#element(target.el, what);
  }

  async type(target: Target, text: string): Promise<void> {
    const element = await this.#resolve(target);
    // In a nested cross-origin frame Send Keys alone can answer "Element is not focusable";
    // a click first (as a shopper's) focuses the box.
    await this.session.mouseClick(element);
    await this.session.sendKeys(element, text);
    await this.session.switchToTop();
  }

  async click(target: Target): Promise<void> {
    await this.session.mouseClick(await this.#resolve(target));
    await this.session.switchToTop();
  }

  async back(): Promise<void> {
    await this.session.switchToTop();
    await this.session.back();
  }

  async screenshot(): Promise<Uint8Array> {
    await this.session.switchToTop();
    return this.session.screenshot();
  }

  async close(): Promise<void> {
    await this.session.delete();
  }
}

export async function launchWebKit(bins: EngineBinaries): Promise<Engine> {
  const minibrowser = requireBinary(bins, 'minibrowser');
  let driver = await startDriver(bins);
  const notes: string[] = [];
  const create = (args: string[]) =>
    WebDriverSession.create({
      driverUrl: driver.url,
      capabilities: {
        alwaysMatch: {
          'webkitgtk:browserOptions': {
            binary: minibrowser,
            args: ['--automation', '--enable-itp', ...args],
          },
        },
      },
      timeouts: { pageLoad: scaled(45_000), script: scaled(15_000) },
      // MiniBrowser starts in a fifth of a second; on a loaded machine the driver has once waited
      // for one that never connected, and then answered nothing at all (not even a new session).
      startMs: scaled(20_000),
    });
  /** A session; when the driver hangs starting MiniBrowser, a new driver and one more try. */
  const session = async (args: string[]) => {
    try {
      return await create(args);
    } catch (error) {
      notes.push(`WebKitWebDriver restarted: a new session failed (${String(error)})`);
      await stopGroup(driver.process);
      driver = await startDriver(bins);
      return create(args);
    }
  };
  // The version, from a first session (MiniBrowser reports it as browserVersion).
  const probe = await session([]);
  const version = `WebKitGTK ${String(probe.capabilities.browserVersion ?? '?')}`;
  await probe.delete();
  return {
    name: 'WebKitGTK',
    version,
    setup: 'MiniBrowser --automation --enable-itp under xvfb-run, driven by WebKitWebDriver',
    schemes: {
      light: { how: 'MiniBrowser as it starts' },
      dark: { how: 'MiniBrowser --dark-mode (prefers-color-scheme: dark)' },
      forced: {
        unsupported:
          'WebKit has no forced-colors mode (Safari does not implement `forced-colors`): nothing to switch on',
      },
    },
    takeNotes: () => notes.splice(0),
    async newTab(scheme: Scheme = 'light') {
      if (scheme === 'forced') throw new Error('WebKitGTK has no forced-colors mode');
      const s = await session(scheme === 'dark' ? ['--dark-mode'] : []);
      await s.setWindowSize(VIEWPORT.width, VIEWPORT.height);
      return new WebKitTab(s);
    },
    async close() {
      await stopGroup(driver.process);
    },
  };
}
