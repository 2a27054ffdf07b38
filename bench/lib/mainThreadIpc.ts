// The messages between bench/mainThread.ts (the emulator and the 24 talking players) and the one measured
// client it runs in a child process (bench/lib/mainThreadSdk.ts or bench/lib/mainThreadDiscordjs.ts), and
// the measurement both children make the same way. Secrets (the access or bot token) cross only here, over
// the IPC channel, and are never printed.
import { readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { performance } from 'node:perf_hooks';

/** What the measured child is told once it runs. */
export interface ChildConfig {
  /** `${http}/api/v10` of the emulator. */
  api: string;
  /** The emulator's HTTP origin. */
  http: string;
  /** The main gateway's WebSocket URL. */
  gateway: string;
  applicationId: string;
  /** An access token (sdkpp) or the bot token (@discordjs/voice). */
  token: string;
  /** The lobby whose call to join. */
  lobbyId: string;
  /** The lobby's secret (sdkpp joins the lobby first, as a member must). */
  lobbySecret: string;
  /** The WAV file the client talks with. */
  wav: string;
  /** For @discordjs/voice: `host:port` of the TLS front of the voice gateway (it only speaks wss://). */
  voiceEndpoint: string;
  /** Warm-up after `go`, then the measured window, in ms. */
  warmupMs: number;
  windowMs: number;
}

/** Parent → child. */
export type ToChild = { type: 'start'; config: ChildConfig } | { type: 'go' } | { type: 'leave' };

/** What one child measured over its window. */
export interface WindowResult {
  /** Event-loop utilisation of the main thread, as milliseconds busy per second. */
  msPerS: number;
  /** CPU time of the whole process (every thread), milliseconds per second, for context. */
  cpuMsPerS: number;
  /**
   * The main thread alone, from Linux's schedstat (NaN elsewhere): its time on a CPU, and its time runnable
   * but waiting for one, in ms per second. On a loaded machine the event loop's busy time includes the
   * wait, so these two say how much of it was work.
   */
  mainCpuMsPerS: number;
  mainWaitMsPerS: number;
  /** What the child checked it received and sent, in words, for stderr. */
  detail: string;
  /** False when the check failed (the line is then not reported). */
  ok: boolean;
}

/** Child → parent. */
export type ToParent =
  | { type: 'ready'; privacyCode: string }
  | { type: 'edge'; edge: 'start' | 'end' }
  | { type: 'result'; result: WindowResult }
  | { type: 'left' }
  | { type: 'error'; message: string };

/** Sends a message to the parent (the child runs with an IPC channel). */
export function tell(message: ToParent): void {
  process.send?.(message);
}

/** Resolves with the next message of `type` from the parent. */
export function nextMessage<T extends ToChild['type']>(type: T): Promise<Extract<ToChild, { type: T }>> {
  return new Promise((resolve) => {
    const onMessage = (message: ToChild): void => {
      if (message.type !== type) return;
      process.off('message', onMessage);
      resolve(message as Extract<ToChild, { type: T }>);
    };
    process.on('message', onMessage);
  });
}

/**
 * The DAVE privacy code `read` returns, once it has stayed the same and non-empty for a second (it reads
 * empty while a transition is under way, and the epoch that adds this client may be followed by another).
 */
export async function settled(read: () => string): Promise<string> {
  let code = '';
  let since = performance.now();
  const start = since;
  for (;;) {
    const now = read();
    if (now !== code) {
      code = now;
      since = performance.now();
    }
    if (code !== '' && performance.now() - since >= 1000) return code;
    if (performance.now() - start > 20_000) throw new Error('no settled DAVE privacy code after 20 s');
    await sleep(20);
  }
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The main thread's time on a CPU and waiting for one, in ns (Linux schedstat), or NaN. */
function mainThreadSchedstat(): { runNs: number; waitNs: number } {
  try {
    const [run = Number.NaN, wait = Number.NaN] = readFileSync(
      `/proc/self/task/${process.pid}/schedstat`,
      'utf8',
    )
      .trim()
      .split(/\s+/)
      .map(Number);
    return { runNs: run, waitNs: wait };
  } catch {
    return { runNs: Number.NaN, waitNs: Number.NaN };
  }
}

/**
 * Waits `warmupMs`, then measures the main thread's event-loop utilisation and the process's CPU time over
 * `windowMs`, telling the parent when the window starts and ends (so it can read the emulator's counters
 * over the same span). Nothing else runs on this thread for the bench meanwhile: the timer is the only wait.
 */
export async function measureWindow(
  warmupMs: number,
  windowMs: number,
): Promise<Omit<WindowResult, 'detail' | 'ok'>> {
  await sleep(warmupMs);
  tell({ type: 'edge', edge: 'start' });
  const elu = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  const sched = mainThreadSchedstat();
  const start = performance.now();
  await sleep(windowMs);
  const used = performance.eventLoopUtilization(elu);
  const cpuUsed = process.cpuUsage(cpu);
  const schedEnd = mainThreadSchedstat();
  const elapsed = performance.now() - start;
  tell({ type: 'edge', edge: 'end' });
  return {
    msPerS: used.utilization * 1000,
    cpuMsPerS: (cpuUsed.user + cpuUsed.system) / 1000 / (elapsed / 1000),
    mainCpuMsPerS: (schedEnd.runNs - sched.runNs) / 1e6 / (elapsed / 1000),
    mainWaitMsPerS: (schedEnd.waitNs - sched.waitNs) / 1e6 / (elapsed / 1000),
  };
}

/** Runs a child's main function: reports a thrown error to the parent, and exits once done. */
export function runChild(main: (config: ChildConfig) => Promise<void>): void {
  // The parent runs at nice 10 (see yieldToTheMeasuredClient in bench/mainThread.ts), which a child
  // inherits: back to the normal priority a game runs at, where allowed.
  try {
    setPriority(0);
  } catch {
    // Not allowed: the child stays at the parent's priority.
  }
  void nextMessage('start')
    .then((message) => main(message.config))
    .then(
      () => {
        tell({ type: 'left' });
      },
      (error: unknown) => {
        tell({
          type: 'error',
          message: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
      },
    )
    .finally(() => {
      // Bounded: a socket some library left open must not keep the child (and the bench) running.
      setTimeout(() => process.exit(0), 200);
    });
}
