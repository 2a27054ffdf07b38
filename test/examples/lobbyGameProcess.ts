import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';

/** The game's entry point, run with tsx as `npm run example:lobby-game` does. */
const MAIN = 'examples/lobby-game/main.ts';

/**
 * One terminal: a real process with piped stdin and stdout. `next` reads the output in order (each match
 * moves past what it matched), so a test follows one player's screen line by line.
 */
export class Terminal {
  readonly name: string;
  readonly #child: ChildProcessWithoutNullStreams;
  #output = '';
  #cursor = 0;
  readonly #waiters = new Set<() => void>();
  readonly exited: Promise<number | null>;

  constructor(name: string, args: string[]) {
    this.name = name;
    this.#child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args]);
    this.#child.stdout.setEncoding('utf8');
    this.#child.stderr.setEncoding('utf8');
    const take = (text: string): void => {
      this.#output += text;
      for (const wake of this.#waiters) wake();
    };
    this.#child.stdout.on('data', take);
    this.#child.stderr.on('data', take);
    this.exited = once(this.#child, 'close').then(([code]) => code as number | null);
  }

  /** Everything printed so far. */
  get output(): string {
    return this.#output;
  }

  /** Types a line. */
  type(line: string): void {
    this.#child.stdin.write(`${line}\n`);
  }

  /** Closes the terminal's input (end of file). */
  endInput(): void {
    this.#child.stdin.end();
  }

  /** Resolves with the first match of `pattern` after the previous `next` match; rejects after `timeoutMs`. */
  next(pattern: RegExp, timeoutMs = 10_000): Promise<RegExpExecArray> {
    return this.#find(pattern, timeoutMs, true);
  }

  /** Resolves with the first match of `pattern` anywhere in the output, without moving past it. */
  sees(pattern: RegExp, timeoutMs = 10_000): Promise<RegExpExecArray> {
    return this.#find(pattern, timeoutMs, false);
  }

  async #find(pattern: RegExp, timeoutMs: number, advance: boolean): Promise<RegExpExecArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const from = advance ? this.#cursor : 0;
      const rest = this.#output.slice(from);
      const match = new RegExp(pattern.source, pattern.flags.replace('g', '')).exec(rest);
      if (match) {
        if (advance) this.#cursor = from + match.index + match[0].length;
        return match;
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`${this.name}: no ${String(pattern)} within ${timeoutMs} ms; it printed:\n${rest}`);
      }
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          this.#waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.#waiters.add(wake);
      });
    }
  }

  /** Waits for this player's turn of move `n` (each turn's line is unique), then drops a disc into `column`. */
  async move(n: number, column: number): Promise<void> {
    await this.sees(new RegExp(`move ${n}: your turn`));
    this.type(`/move ${column}`);
  }

  /** Ends the process if it is still running (after a failed test). */
  kill(): void {
    if (this.#child.exitCode === null) this.#child.kill('SIGKILL');
  }
}

/** The emulator CLI in a child process, as a player would start it in a terminal of its own. */
export class EmulatorProcess {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly http: Promise<string>;

  constructor(args: string[]) {
    this.#child = spawn(process.execPath, [
      'packages/sdkpp/dist/cli.js',
      'emulator',
      '--port',
      '0',
      '--json',
      ...args,
    ]);
    this.#child.stdout.setEncoding('utf8');
    this.http = new Promise((resolve, reject) => {
      let text = '';
      this.#child.stdout.on('data', (chunk: string) => {
        text += chunk;
        const line = text.split('\n')[0];
        if (text.includes('\n') && line !== undefined) resolve((JSON.parse(line) as { http: string }).http);
      });
      this.#child.once('close', (code) => reject(new Error(`the emulator exited with ${String(code)}`)));
    });
  }

  /** Stops it the way Ctrl+C does. */
  async stop(): Promise<void> {
    if (this.#child.exitCode !== null) return;
    const closed = once(this.#child, 'close');
    this.#child.kill('SIGINT');
    await closed;
  }
}
