// Third-party C and C++ sources for the native addon come from the npm registry, the only place an install
// may download from: a pinned package tarball is fetched with `npm pack` (which uses npm's cache and runs
// none of the package's scripts), checked against the pinned sha512, and only the wanted members are
// extracted, under build-deps/ (git-ignored). Nothing of them is kept in the repository.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';

/** Whether `command` runs (by default with `--version`). */
export function works(command, args = ['--version']) {
  const result = spawnSync(command, args, { stdio: 'ignore', shell: process.platform === 'win32' });
  return result.status === 0;
}

/** Runs a command and returns its stdout; throws with the tail of its output when it fails. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    shell: process.platform === 'win32',
    ...options,
  });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}${result.error?.message ?? ''}`;
    throw new Error(
      `${command} ${args[0] ?? ''} failed:\n${output.trim().split('\n').slice(-15).join('\n')}`,
    );
  }
  return result.stdout ?? '';
}

/**
 * Fetches `source.npmPackage` (`name@version`) into `workDir`, checks it against `source.integrity` and
 * extracts `members` (paths inside the tarball, such as `package/opus`) there. Returns the tarball's name.
 */
export function fetchPinnedTarball(source, workDir, members) {
  const npm = process.env.npm_execpath;
  const [command, prefix] = npm && npm.endsWith('.js') ? [process.execPath, [npm]] : ['npm', []];
  const output = run(
    command,
    [...prefix, 'pack', source.npmPackage, '--pack-destination', workDir, '--silent', '--ignore-scripts'],
    { cwd: workDir },
  );
  const name = output.trim().split('\n').pop();
  const tarball = path.join(workDir, name);
  const digest = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  if (digest !== source.integrity) {
    throw new Error(`${name} does not match the pinned sha512 (got ${digest})`);
  }
  run('tar', ['xzf', tarball, '-C', workDir, ...members]);
  return name;
}
