import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
 * `sdkpp`, `@sdkpp/emulator`, … resolve through the package's own `exports` to dist/, as they do for a game
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

/** libuv handles every Node process has; the ones left (sockets, servers, timers) are what it waits on. */
const LOOP_INTERNALS = new Set(['async', 'check', 'prepare', 'idle', 'loop', 'signal']);

/** How long a snippet that timed out gets to write its diagnostic report before it is killed. */
const REPORT_GRACE_MS = 2000;

/**
 * What a hung snippet was doing, from the Node diagnostic report it wrote on SIGUSR2: the JavaScript stack
 * and the libuv handles still open (a timer, a socket, a server…), so a timeout says where it waited.
 */
function describeReport(dir: string): string {
  const file = readdirSync(dir).find((name) => name.endsWith('.json'));
  if (file === undefined) return 'no diagnostic report (the main thread never got back to the event loop)';
  try {
    const report = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as {
      javascriptStack?: { message?: string; stack?: string[] };
      libuv?: { type?: string; is_active?: boolean; address?: string; localEndpoint?: unknown }[];
    };
    const stack = (report.javascriptStack?.stack ?? []).slice(0, 12).join('\n  ');
    const handles = (report.libuv ?? [])
      .filter((handle) => handle.is_active === true && !LOOP_INTERNALS.has(handle.type ?? ''))
      .map(
        (handle) =>
          `${handle.type ?? '?'}${handle.localEndpoint ? ` ${JSON.stringify(handle.localEndpoint)}` : ''}`,
      );
    return `JS stack at the timeout:\n  ${stack || '(idle)'}\nactive handles: ${handles.join(', ') || 'none'}`;
  } catch (error) {
    return `unreadable diagnostic report: ${(error as Error).message}`;
  }
}

/**
 * Runs `node --import tsx <file>` from `cwd` with `tsconfig` as tsx's configuration, killing it (and what it
 * started) after `timeoutMs`. A snippet that times out is first asked for a diagnostic report, whose
 * summary is appended to its stderr.
 */
export function runSnippet(
  file: string,
  cwd: string,
  tsconfig: string,
  timeoutMs: number,
): Promise<SnippetRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const reportDir = mkdtempSync(path.join(tmpdir(), 'sdkpp-snippet-report-'));
    const child = spawn(
      process.execPath,
      [
        '--report-on-signal',
        '--report-signal=SIGUSR2',
        `--report-directory=${reportDir}`,
        '--import',
        'tsx',
        file,
      ],
      {
        cwd,
        // Its own process group, so a timeout also ends anything the snippet spawned.
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, TSX_TSCONFIG_PATH: tsconfig, FORCE_COLOR: '0', NO_COLOR: '1' },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    let timedOut = false;
    const kill = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    let grace: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(child.pid, 'SIGUSR2');
      } catch {
        // Already gone.
      }
      grace = setTimeout(kill, REPORT_GRACE_MS);
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      rmSync(reportDir, { recursive: true, force: true });
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      clearTimeout(grace);
      if (timedOut) {
        kill(); // whatever the snippet spawned
        stderr += `\n--- timed out ---\n${describeReport(reportDir)}\n`;
      }
      rmSync(reportDir, { recursive: true, force: true });
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
