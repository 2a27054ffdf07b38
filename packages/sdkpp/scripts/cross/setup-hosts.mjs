// The foreign hosts the cross builds are tested in: Windows Node under wine, Linux arm64 Node under
// qemu-user. A fresh machine of this project's kind (Debian 12) has neither, so when this runs as root (CI and
// these machines do) it installs Debian's packages; as anyone else it stops with the exact command to run.
//   import { setupHosts } from './setup-hosts.mjs'   setupHosts(['wine', 'qemu'])
//   node scripts/cross/setup-hosts.mjs [wine] [qemu]  (both when none is named)
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

/** The aarch64 sysroot of Debian's cross packages, handed to qemu-aarch64 with -L. */
export const ARM64_SYSROOT = '/usr/aarch64-linux-gnu';

/**
 * What each host needs, as files or commands to look for and the Debian package that brings each. The
 * arm64 Node from the registry is a dynamic glibc executable (interpreter /lib/ld-linux-aarch64.so.1,
 * libstdc++.so.6, libgcc_s.so.1), so qemu needs an aarch64 loader and those libraries; Debian's cross
 * runtime packages put exactly that under /usr/aarch64-linux-gnu.
 */
const NEEDS = {
  wine: [
    // Debian 12 keeps the 64-bit loader out of PATH (/usr/bin/wine is a wrapper that looks for wine32 first).
    { what: 'the 64-bit wine loader', found: () => wine64Path() !== undefined, debian: 'wine64' },
    { what: 'wineserver', found: () => wineserverPath() !== undefined, debian: 'wine' },
  ],
  qemu: [
    { what: 'qemu-aarch64', found: () => runs('qemu-aarch64', ['--version']), debian: 'qemu-user' },
    {
      what: 'the aarch64 glibc loader',
      found: () => existsSync(path.join(ARM64_SYSROOT, 'lib', 'ld-linux-aarch64.so.1')),
      debian: 'libc6-arm64-cross',
    },
    {
      what: 'the aarch64 libgcc_s',
      found: () => existsSync(path.join(ARM64_SYSROOT, 'lib', 'libgcc_s.so.1')),
      debian: 'libgcc-s1-arm64-cross',
    },
    {
      what: 'the aarch64 libstdc++',
      found: () => existsSync(path.join(ARM64_SYSROOT, 'lib', 'libstdc++.so.6')),
      debian: 'libstdc++6-arm64-cross',
    },
  ],
};

function runs(command, args) {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

/** The first of `candidates` that runs with --version. */
function firstRunning(candidates) {
  return candidates.find((candidate) => runs(candidate, ['--version']));
}

/** The 64-bit wine loader: `wine64` where a distribution puts it in PATH, else Debian's own place. */
export function wine64Path() {
  return firstRunning(['wine64', '/usr/lib/wine/wine64']);
}

/** The wineserver matching that loader. */
export function wineserverPath() {
  return firstRunning(['wineserver', '/usr/lib/wine/wineserver64']);
}

/** The Debian packages missing for `hosts`, and what each brings. */
export function missingHostPackages(hosts = ['wine', 'qemu']) {
  const missing = hosts.flatMap((host) => NEEDS[host].filter((need) => !need.found()));
  return [...new Map(missing.map((need) => [need.debian, need.what])).entries()].map(([debian, what]) => ({
    debian,
    what,
  }));
}

function install(packages) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', '--no-install-recommends', ...packages],
  ]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (result.status !== 0) {
      throw new Error(`apt-get ${args.join(' ')} failed (exit ${String(result.status)})`);
    }
  }
}

/**
 * Makes sure `hosts` ('wine', 'qemu') can run: installs what is missing as root, else throws an Error whose
 * message ends with the exact command to run.
 */
export function setupHosts(hosts = ['wine', 'qemu']) {
  const missing = missingHostPackages(hosts);
  if (missing.length === 0) return;
  const packages = missing.map(({ debian }) => debian);
  const what = missing.map(({ what }) => what).join(', ');
  if (process.platform !== 'linux' || process.getuid?.() !== 0) {
    throw new Error(
      `Running the package in a foreign host needs ${what}. Run: sudo apt-get install ${packages.join(' ')}`,
    );
  }
  process.stdout.write(`cross hosts: installing ${packages.join(' ')} (${what})\n`);
  install(packages);
  const still = missingHostPackages(hosts);
  if (still.length > 0) {
    throw new Error(`still missing after apt-get: ${still.map(({ what }) => what).join(', ')}`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const named = process.argv.slice(2);
  const unknown = named.filter((host) => !(host in NEEDS));
  if (unknown.length > 0) {
    process.stderr.write(`unknown host ${unknown.join(', ')}; known: ${Object.keys(NEEDS).join(', ')}\n`);
    process.exit(2);
  }
  try {
    setupHosts(named.length > 0 ? named : Object.keys(NEEDS));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
