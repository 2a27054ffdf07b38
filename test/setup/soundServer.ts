/**
 * Vitest global setup: the system-audio tests run a real PulseAudio server with virtual devices
 * (test/integration/pulseServer.ts). A fresh machine of this project's kind has none, so here, when it runs
 * as root (CI and these machines do), Debian's packages are installed; as anyone else it stops with the
 * exact command to run.
 */
import { spawnSync } from 'node:child_process';

/** The Debian packages: the server itself, and pactl, paplay and parecord. */
const DEBIAN_PACKAGES = ['pulseaudio', 'pulseaudio-utils'] as const;
const TOOLS = ['pulseaudio', 'pactl', 'paplay', 'parecord'] as const;

function missingTools(): string[] {
  return TOOLS.filter((tool) => spawnSync(tool, ['--version'], { stdio: 'ignore' }).status !== 0);
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
  const missing = missingTools();
  if (missing.length === 0) return;
  const command = `apt-get install ${DEBIAN_PACKAGES.join(' ')}`;
  if (process.platform !== 'linux' || process.getuid?.() !== 0) {
    throw new Error(
      `The system audio tests need a PulseAudio server (missing: ${missing.join(', ')}). Run: sudo ${command}`,
    );
  }
  process.stdout.write(
    `test setup: installing ${DEBIAN_PACKAGES.join(' ')} (a PulseAudio server with virtual devices for the system audio tests)\n`,
  );
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...DEBIAN_PACKAGES]);
}
