import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

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

/**
 * Writes the tsconfig that tsx runs snippets with: the repository's settings without its `paths`, so
 * `sdkpp`, `sdkpp/emulator`, … resolve through the package's own `exports` to dist/, as they do for a game
 * that installed the package (the repository's `paths` point type-checking at src/ instead).
 */
export function writeRunConfig(repoRoot: string, dir: string): string {
  const file = path.join(dir, 'tsconfig.run.json');
  const config = {
    extends: path.relative(dir, path.join(repoRoot, 'tsconfig.json')),
    compilerOptions: { paths: {} },
  };
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  return file;
}

/**
 * Runs `node --import tsx <file>` from `cwd` with `tsconfig` as tsx's configuration, killing it (and what it
 * started) after `timeoutMs`.
 */
export function runSnippet(
  file: string,
  cwd: string,
  tsconfig: string,
  timeoutMs: number,
): Promise<SnippetRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file], {
      cwd,
      // Its own process group, so a timeout also ends anything the snippet spawned.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TSX_TSCONFIG_PATH: tsconfig, FORCE_COLOR: '0', NO_COLOR: '1' },
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
