import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository's root, where the CLI runs. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const children: ChildProcess[] = [];

/** The built CLI (`npm test` builds dist/ first), as the `sdkpp` bin runs it. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = process.env): ChildProcess {
  const child = spawn(process.execPath, ['packages/sdkpp/dist/cli.js', ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return child;
}

/** Kills what a test left running (call from afterEach). */
export function killChildren(): void {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
}

/** The exit code (null when a signal ended it). */
export function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

/** Collects stdout and stderr. */
export function output(child: ChildProcess): { stdout: () => string; stderr: () => string } {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return { stdout: () => stdout, stderr: () => stderr };
}

/** The first line on stdout; rejects when the process exits first. */
export function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const newline = buffer.indexOf('\n');
      if (newline >= 0) resolve(buffer.slice(0, newline));
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before printing a line`)));
  });
}

/** Runs the CLI to its end; resolves with its exit code and output. */
export async function runToEnd(
  args: string[],
  env?: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = runCli(args, env);
  const streams = output(child);
  const code = await exitOf(child);
  return { code, stdout: streams.stdout(), stderr: streams.stderr() };
}

/** Whether text looks like a stack trace (a line starting with "at "). */
export function hasStackTrace(text: string): boolean {
  return /^\s+at /m.test(text);
}

/** The JSON line `sdkpp emulator --json` prints first. */
export interface EmulatorLine {
  http: string;
  api: string;
  applicationId: string;
  botToken: string;
  users: Array<{ id: string; username: string }>;
  /** The voice gateway's local certificate authority (null with --voice-ca none). */
  voiceCaFile: string | null;
}

/**
 * Starts `sdkpp emulator --json --no-rpc --auto-consent --state file` with `extra` flags; resolves with the
 * process, its parsed first line and its collected output.
 */
export async function startWithState(
  file: string,
  extra: string[] = [],
): Promise<{ child: ChildProcess; info: EmulatorLine; streams: ReturnType<typeof output> }> {
  const child = runCli([
    'emulator',
    '--port',
    '0',
    '--json',
    '--no-rpc',
    '--auto-consent',
    '--state',
    file,
    ...extra,
  ]);
  const streams = output(child);
  const info = JSON.parse(await firstLine(child)) as EmulatorLine;
  return { child, info, streams };
}
