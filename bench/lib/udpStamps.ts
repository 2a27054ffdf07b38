// The pacing bench's instrument: bench/native/udp_stamps.cc, a UDP receiver that records the kernel's arrival
// time of each datagram, built on first use with the system's g++ into build-deps/bench/ (git-ignored).
import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SOURCE = path.join(ROOT, 'bench', 'native', 'udp_stamps.cc');
const BINARY = path.join(ROOT, 'build-deps', 'bench', 'udp-stamps');

/** Builds the receiver when it is missing or older than its source; throws with the compiler's output. */
export function buildUdpStamps(): string {
  if (existsSync(BINARY) && statSync(BINARY).mtimeMs >= statSync(SOURCE).mtimeMs) return BINARY;
  mkdirSync(path.dirname(BINARY), { recursive: true });
  const built = spawnSync('g++', ['-std=c++17', '-O2', '-Wall', '-Wextra', '-Werror', SOURCE, '-o', BINARY], {
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`bench: building udp-stamps failed:\n${built.stderr}`);
  return BINARY;
}

/** A running receiver: its port, and `stop()` for the arrival times in ms (kernel clock, CLOCK_REALTIME). */
export interface UdpStamps {
  readonly port: number;
  stop(): Promise<number[]>;
}

/** Starts a receiver on 127.0.0.1 (see bench/native/udp_stamps.cc); the binary comes from {@link buildUdpStamps}. */
export async function startUdpStamps(binary: string): Promise<UdpStamps> {
  const child: ChildProcessByStdio<Writable, Readable, null> = spawn(binary, [], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => (output += chunk));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('bench: udp-stamps did not start in 5 s')), 5000);
    const check = (): void => {
      const match = /^port (\d+)\n/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout.off('data', check);
      resolve(Number(match[1]));
    };
    child.stdout.on('data', check);
    child.once('exit', (code) =>
      reject(new Error(`bench: udp-stamps exited (${String(code)}) before binding`)),
    );
  });
  return {
    port,
    async stop() {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.stdin.end();
      await exited;
      const stamps = output
        .split('\n')
        .slice(1)
        .filter((line) => line !== '')
        .map((line) => BigInt(line));
      // Nanoseconds since 1970 need 61 bits: differences first, then ms as doubles.
      const first = stamps[0] ?? 0n;
      return stamps.map((ns) => Number(ns - first) / 1e6);
    },
  };
}
