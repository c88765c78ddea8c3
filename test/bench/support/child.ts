/**
 * A TypeScript child process that announces itself with one JSON line on stdout. The parent
 * waits for that line (bounded), and stops the child by its own pid, never by name.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface Child<Ready> {
  ready: Ready;
  process: ChildProcess;
  stop(): Promise<void>;
}

export interface ChildOptions {
  /** Node options before the script (V8 flags a deployment sets, say). */
  nodeFlags?: readonly string[];
  timeoutMs?: number;
}

export async function startChild<Ready>(
  script: string,
  input: unknown,
  { nodeFlags = [], timeoutMs = 90_000 }: ChildOptions = {},
): Promise<Child<Ready>> {
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', script], {
    env: { ...process.env, BENCH_STACK: JSON.stringify(input) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const ready = await new Promise<Ready>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not start in ${timeoutMs} ms`));
    }, timeoutMs);
    lines.on('line', (line) => {
      if (!line.startsWith('{"ready"')) return;
      clearTimeout(timer);
      resolve(JSON.parse(line) as Ready);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code} before it was ready`));
    });
  });
  return {
    ready,
    process: child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(force);
    },
  };
}
