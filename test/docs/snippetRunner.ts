import { spawn } from 'node:child_process';

/** What one snippet did as a child process. */
export interface SnippetRun {
  /** The exit code, or null when a signal (the timeout) ended it. */
  code: number | null;
  /** Whether the timeout killed it. */
  timedOut: boolean;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs `node --import tsx <file>` from `cwd`, killing it (and what it started) after `timeoutMs`. */
export function runSnippet(file: string, cwd: string, timeoutMs: number): Promise<SnippetRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file], {
      cwd,
      // Its own process group, so a timeout also ends anything the snippet spawned.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, timedOut, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** Runs tasks with at most `limit` at a time; each call returns its task's promise. */
export function limiter(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  const release = (): void => {
    active -= 1;
    waiting.shift()?.();
  };
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    active += 1;
    try {
      return await task();
    } finally {
      release();
    }
  };
}
