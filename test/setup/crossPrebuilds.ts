/**
 * Vitest global setup: the prebuilds of the other four targets (win32-x64, linux-arm64, darwin-x64,
 * darwin-arm64), which the wine and qemu tests run and the packaging test inspects. They are built by the
 * package's own `npm run native:prebuild` before any test starts, so that a cross compile never competes
 * with a test judged by ear for the two cores. The toolchains and the libraries built for each target are
 * cached outside the checkout (~/.cache/sdkpp-cross), so after the first run this takes seconds; the first
 * run takes about a quarter of an hour here. This machine's own prebuild (linux-x64) is not built into the
 * repository: the other tests load the local build, and test/integration/prebuild.test.ts builds it in a
 * copy of the package.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The SDK package's folder: its scripts, native sources, build and prebuilds.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'packages', 'sdkpp');

/** The targets built here; linux-x64 is this machine's and is left to the prebuild test. */
export const CROSS_TARGETS = ['win32-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64'] as const;

export default function setup(): void {
  const started = Date.now();
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'scripts', 'prebuild.mjs'), ...CROSS_TARGETS.flatMap((id) => ['--target', id])],
    { stdio: 'inherit', cwd: root, timeout: 60 * 60_000 },
  );
  // This machine's libraries too, so that the prebuild test's build in a copy of the package only compiles.
  const libraries =
    result.status === 0
      ? spawnSync(
          process.execPath,
          [path.join(root, 'scripts', 'prebuild.mjs'), '--target', 'linux-x64', '--libraries-only'],
          { stdio: 'inherit', cwd: root, timeout: 30 * 60_000 },
        )
      : result;
  if (result.status !== 0 || libraries.status !== 0) {
    throw new Error(
      `test setup: npm run native:prebuild -- ${CROSS_TARGETS.map((id) => `--target ${id}`).join(' ')} failed ` +
        `(${libraries.signal ?? `exit ${String(libraries.status)}`}); its output is above`,
    );
  }
  process.stdout.write(
    `test setup: the cross prebuilds are ready (${((Date.now() - started) / 1000).toFixed(0)} s)\n`,
  );
}
