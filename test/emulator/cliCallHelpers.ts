/**
 * Helpers of the `sdkpp emulator call` tests: a registry folder of their own for each test (XDG_RUNTIME_DIR),
 * emulators the built CLI starts there as separate processes, and the call verb run to its end.
 */
import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { firstLine, output, runCli, runToEnd, type EmulatorLine } from './cliProcess.js';

const folders: string[] = [];

/** Removes the runtime folders {@link isolated} made (call from afterEach, after killing the emulators). */
export function removeIsolatedFolders(): void {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
}

/** A fresh runtime folder and the environment that points the CLI at it (and at no SDKPP_EMULATOR). */
export function isolated(): { env: NodeJS.ProcessEnv; dir: string } {
  const runtime = mkdtempSync(path.join(tmpdir(), 'sdkpp-registry-test-'));
  chmodSync(runtime, 0o700);
  folders.push(runtime);
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: runtime };
  delete env.SDKPP_EMULATOR;
  return { env, dir: path.join(runtime, 'sdkpp') };
}

/** `sdkpp emulator --port 0 --json --no-rpc …` in `env`; resolves with its JSON line once it serves. */
export async function emulator(
  env: NodeJS.ProcessEnv,
  extra: string[] = [],
): Promise<{ child: ChildProcess; info: EmulatorLine; streams: ReturnType<typeof output> }> {
  const child = runCli(['emulator', '--port', '0', '--json', '--no-rpc', ...extra], env);
  const streams = output(child);
  const info = JSON.parse(await firstLine(child)) as EmulatorLine;
  return { child, info, streams };
}

/** `sdkpp emulator call …` to its end. */
export function call(env: NodeJS.ProcessEnv, ...args: string[]): ReturnType<typeof runToEnd> {
  return runToEnd(['emulator', 'call', ...args], env);
}

/** A channel of the seeded guild by name (and type: 0 text, 2 voice), asked for with `call guilds`. */
export async function channelOf(env: NodeJS.ProcessEnv, name: string, type = 0): Promise<string> {
  const guilds = JSON.parse((await call(env, 'guilds')).stdout) as {
    channels: { id: string; name: string; type: number }[];
  }[];
  return guilds[0]?.channels.find((c) => c.name === name && c.type === type)?.id ?? '';
}

/** The seeded guild's #general, asked for with `call guilds`. */
export function generalOf(env: NodeJS.ProcessEnv): Promise<string> {
  return channelOf(env, 'general');
}
