// Other work on the machine, for benches that measure real-time audio beside it (bench/systemAudio.ts):
// each kind is a few child processes in their own process group, started at normal priority, and stopped
// (the whole group killed) by the returned handle, by `stopAllLoads`, or when this process exits.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The kinds of load:
 * - `cpu`: six processes busy-looping (plain CPU contention).
 * - `forks`: two shells starting short-lived processes as fast as they can (`sh -c true`), as a build or a
 *   test runner does; each exec maps a new address space and wakes the scheduler's fork balancing.
 * - `io`: writing 64 MiB files with fsync, over and over (journal commits, writeback, dirty-page throttling).
 * - `memory`: two processes copying 256 MiB buffers (memory bandwidth).
 * - `chromium`: the test suite's headless Chromium rendering a page that animates a canvas.
 * - `npm`: `npm install` of a few packages from the npm cache into a temporary folder, over and over.
 * - `busy`: the mix a test suite's neighbours make: `chromium`, `npm` and `forks` together.
 */
export type LoadKind = 'cpu' | 'forks' | 'io' | 'memory' | 'chromium' | 'npm' | 'busy';

export const LOAD_KINDS: readonly LoadKind[] = ['cpu', 'forks', 'io', 'memory', 'chromium', 'npm', 'busy'];

/** A running load. */
export interface MachineLoad {
  readonly kind: LoadKind;
  /** Kills every process of the load (their whole process groups) and removes its files; idempotent. */
  stop(): void;
}

const running = new Set<MachineLoad>();

/** Stops every load still running (for exit paths). */
export function stopAllLoads(): void {
  for (const load of [...running]) load.stop();
}

let exitHooked = false;
function hookExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', stopAllLoads);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      stopAllLoads();
      process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1));
    });
  }
}

/** `text` as one word for `sh`. */
const quoted = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * `command` (a shell command line) in a shell of its own process group, with a watch beside it: once this
 * process is gone, however it went (a SIGKILL, a crash, a `pkill` that reached only it), the shell kills its
 * whole group within a second. Killing the group from here (killGroup) is the usual way; the watch is for
 * when that never runs, so that no load outlives its bench (one ran through a CI run and failed it).
 */
function group(command: string, options: { cwd?: string } = {}): ChildProcess {
  const script = `${command} &\nwhile kill -0 ${process.pid} 2>/dev/null; do sleep 1; done\nkill -9 -$$`;
  const child = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore', ...options });
  child.unref();
  return child;
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

const shell = (script: string, cwd?: string): ChildProcess =>
  group(`sh -c ${quoted(script)}`, cwd === undefined ? {} : { cwd });

const node = (script: string): ChildProcess => group(`${quoted(process.execPath)} -e ${quoted(script)}`);

/**
 * A page that keeps the renderer busy as a game's web view or a test's page does: a canvas redrawn and the
 * layout of a few thousand elements recomputed every 16 ms (a timer, since a headless page without a
 * compositor may not run animation frames).
 */
const ANIMATED_PAGE =
  'data:text/html,<canvas id=c width=1280 height=720></canvas><div id=d></div><script>' +
  'for(let i=0;i<3000;i++){const e=document.createElement("span");e.textContent="x"+i;d.appendChild(e)}' +
  'const g=c.getContext("2d");let t=0;function f(){t++;for(let i=0;i<400;i++){' +
  'g.fillStyle=`hsl(${(t+i)%360},80%,50%)`;g.beginPath();g.arc((i*37+t*3)%1280,(i*53+t*2)%720,30,0,7);g.fill()}' +
  'd.style.fontSize=(10+t%5)+"px";void d.offsetHeight;setTimeout(f,16)}f()</script>';

/** `npm install` of these from the cache: a few hundred files each time, no network needed once cached. */
const NPM_PACKAGES = ['typescript@5', 'prettier@3', 'eslint@9'];

function start(
  kind: Exclude<LoadKind, 'busy'>,
  chromium: string | undefined,
): {
  children: ChildProcess[];
  dir?: string;
} {
  switch (kind) {
    case 'cpu':
      return { children: Array.from({ length: 6 }, () => node('for (;;) {}')) };
    case 'forks':
      return { children: Array.from({ length: 2 }, () => shell('while :; do sh -c true; done')) };
    case 'io': {
      const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-load-io-'));
      const script = `while :; do dd if=/dev/zero of=${dir}/f bs=1M count=64 conv=fsync status=none; done`;
      return { children: [shell(script)], dir };
    }
    case 'memory': {
      const copy =
        'const a = Buffer.alloc(256 << 20, 1); const b = Buffer.alloc(256 << 20); for (;;) a.copy(b);';
      return { children: [node(copy), node(copy)] };
    }
    case 'chromium': {
      if (!chromium)
        throw new Error('the chromium load needs the headless Chromium (test/setup/chromium.ts)');
      const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-load-chromium-'));
      const args = [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--use-angle=swiftshader',
        '--enable-unsafe-swiftshader',
        '--remote-debugging-port=0',
        `--user-data-dir=${dir}`,
        '--window-size=1280,720',
        ANIMATED_PAGE,
      ];
      const browser = group([chromium, ...args].map(quoted).join(' '));
      return { children: [browser], dir };
    }
    case 'npm': {
      const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-load-npm-'));
      mkdirSync(path.join(dir, 'p'));
      writeFileSync(path.join(dir, 'p', 'package.json'), '{"name":"load","version":"1.0.0","private":true}');
      const install = `npm install --prefer-offline --no-audit --no-fund --ignore-scripts --loglevel=error ${NPM_PACKAGES.join(' ')}`;
      const script = `cd p && while :; do rm -rf node_modules package-lock.json; ${install} >/dev/null 2>&1; done`;
      return { children: [shell(script, dir)], dir };
    }
  }
}

/**
 * Starts a load of `kind`. `chromium`: the headless Chromium's executable, for the kinds that run it.
 */
export function startLoad(kind: LoadKind, chromium?: string): MachineLoad {
  hookExit();
  const parts =
    kind === 'busy'
      ? (['chromium', 'npm', 'forks'] as const).map((k) => start(k, chromium))
      : [start(kind, chromium)];
  let stopped = false;
  const load: MachineLoad = {
    kind,
    stop() {
      if (stopped) return;
      stopped = true;
      running.delete(load);
      for (const part of parts) {
        for (const child of part.children) killGroup(child);
        if (part.dir) rmSync(part.dir, { recursive: true, force: true });
      }
    },
  };
  running.add(load);
  return load;
}
