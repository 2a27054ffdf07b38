/**
 * Vitest global setup: the native addon under test carries its own crypto (a static libcrypto, linked in with
 * its symbols hidden), which is what lets it load in Electron and Bun. A fresh machine of this project's kind
 * has no static libcrypto, so `npm install` built the addon on the host's OpenSSL instead. Here, when it runs
 * as root (CI and these machines do), Debian's `libssl-dev` is installed and the addon rebuilt once; as
 * anyone else it stops with the exact command to run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The SDK package's folder: its scripts, native sources, build and prebuilds.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'packages', 'sdkpp');
/** The Debian package that ships libcrypto.a and its headers. */
const DEBIAN_PACKAGE = 'libssl-dev';

function cryptoConfig(what: 'exists' | 'describe'): string {
  return execFileSync(process.execPath, [path.join(root, 'scripts', 'crypto-config.mjs'), what], {
    encoding: 'utf8',
  });
}

/** The linkage the built addon reports, or undefined when none is built. */
function builtLinkage(): string | undefined {
  const probe = spawnSync(
    process.execPath,
    [
      '-e',
      `try { const a = require(${JSON.stringify(path.join(root, 'build', 'Release', 'sdkpp_native.node'))}); process.stdout.write(String(a.engineInfo().crypto.linkage)); } catch {}`,
    ],
    { encoding: 'utf8' },
  );
  return probe.stdout === '' ? undefined : probe.stdout;
}

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (exit ${String(result.status)})`);
}

export default function setup(): void {
  if (cryptoConfig('exists') !== 'true') {
    const command = `apt-get install ${DEBIAN_PACKAGE} && npm run build:native`;
    if (process.platform !== 'linux' || process.getuid?.() !== 0) {
      throw new Error(
        `The native tests need the addon built on a static libcrypto (Debian's ${DEBIAN_PACKAGE}). Run: sudo ${command}`,
      );
    }
    process.stdout.write(
      `test setup: installing ${DEBIAN_PACKAGE} (a static libcrypto for the native addon)\n`,
    );
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', DEBIAN_PACKAGE]);
  }
  if (builtLinkage() !== 'static') {
    process.stdout.write(`test setup: rebuilding the native addon on ${cryptoConfig('describe')}\n`);
    run(process.execPath, [path.join(root, 'scripts', 'build-native.mjs')]);
  }
}
