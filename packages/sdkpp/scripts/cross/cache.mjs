// The cross builds' cache: toolchains (zig, Node for other platforms) and the libraries built for each
// target (libcrypto, libopus) live outside the checkout, so that a fresh clone's second
// `npm run native:prebuild -- --all` takes seconds and `git clean` never costs a rebuild.
//   SDKPP_CROSS_CACHE=/path     where (default: $XDG_CACHE_HOME/sdkpp-cross, else ~/.cache/sdkpp-cross)
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';

import { fetchPinnedTarball } from '../npm-source.mjs';

/** The cache's root folder, created on first use. */
export function crossCacheDir() {
  const root =
    process.env.SDKPP_CROSS_CACHE ??
    path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'sdkpp-cross');
  mkdirSync(root, { recursive: true });
  return root;
}

const LOCK_WAIT_MS = 60 * 60_000;
/** How long a lock may have no owner's pid yet (written just after the folder) before it counts as left over. */
const LOCK_BIRTH_MS = 10_000;

function sleepSync(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/**
 * Runs `fn` while holding the cache's lock called `name` (a folder made atomically, holding the owner's pid),
 * so that two builds at once (two test runs, a test and a developer) never share a work folder or half a
 * library. `fn` may be async: the lock is held until its promise settles. A lock whose owner has died is
 * taken over; waiting is bounded (an hour: a cold build of every target is about half that here).
 */
export function withLock(name, fn) {
  const dir = path.join(crossCacheDir(), 'locks', `${name}.lock`);
  const pidFile = path.join(dir, 'pid');
  mkdirSync(path.dirname(dir), { recursive: true });
  const deadline = Date.now() + LOCK_WAIT_MS;
  let announced = false;
  for (;;) {
    try {
      mkdirSync(dir);
      writeFileSync(pidFile, String(process.pid));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    let owner = 0;
    try {
      owner = Number(readFileSync(pidFile, 'utf8')) || 0;
    } catch {
      owner = 0;
    }
    let born = Date.now();
    try {
      born = statSync(dir).mtimeMs;
    } catch {
      continue; // released meanwhile
    }
    if ((owner !== 0 && !alive(owner)) || (owner === 0 && Date.now() - born > LOCK_BIRTH_MS)) {
      rmSync(dir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline)
      throw new Error(`the cross cache's ${name} lock is still held by process ${owner}`);
    if (!announced) {
      process.stdout.write(`sdkpp prebuild: waiting for process ${owner}, which is building ${name}\n`);
      announced = true;
    }
    sleepSync(500);
  }
  const release = () => rmSync(dir, { recursive: true, force: true });
  let result;
  try {
    result = fn();
  } catch (error) {
    release();
    throw error;
  }
  // An async build holds the lock until it settles.
  if (result !== null && typeof result?.then === 'function') return result.finally(release);
  release();
  return result;
}

/**
 * A registry package unpacked in the cache: `source` is `{ npmPackage: 'name@version', integrity }`, with
 * `member` (a folder inside the tarball, such as `package/vendor/opus`) when only that part is wanted. The
 * tarball is fetched with `npm pack` (npm's own cache; no scripts run), checked against the pinned sha512,
 * and unpacked once; later calls return the folder at once. Returns the unpacked `package/` folder.
 */
export function cachedPackage(source) {
  return withLock(source.npmPackage.replace(/[/@]/g, '_'), () => unpackPackage(source));
}

function unpackPackage(source) {
  const folder = path.join(crossCacheDir(), 'packages', source.npmPackage.replace(/[/@]/g, '_'));
  const stamp = path.join(folder, 'stamp.json');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === JSON.stringify(source)) {
    return path.join(folder, 'package');
  }
  // Unpacked beside the final folder and renamed into place, so that an interrupted fetch leaves nothing
  // that a later run would take for whole.
  const work = `${folder}.partial-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  try {
    fetchPinnedTarball(source, work, [source.member ?? 'package']);
    writeFileSync(path.join(work, 'stamp.json'), JSON.stringify(source));
    rmSync(folder, { recursive: true, force: true });
    renameSync(work, folder);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return path.join(folder, 'package');
}

/**
 * A library built for one target into `<cache>/<kind>/<id>/`: when that folder's stamp says it was built from
 * `wanted` (sources, options, compiler), `libraryPath` (relative to it) is returned at once, with seconds 0.
 * Otherwise `build(work, prefix)` (which may be async) runs in a fresh work folder and must leave the library
 * there; the stamp is written last, so an interrupted build is never taken for a whole one. Resolves to
 * `{ prefix, library, seconds }`.
 */
export async function cachedLibrary(kind, id, wanted, libraryPath, build) {
  const prefix = path.join(crossCacheDir(), kind, id);
  const library = path.join(prefix, libraryPath);
  const stampFile = path.join(prefix, 'stamp.json');
  const stamp = JSON.stringify(wanted);
  if (existsSync(library) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
    return { prefix, library, seconds: 0 };
  }
  const started = performance.now();
  const work = path.join(crossCacheDir(), 'work', `${kind}-${id}`);
  rmSync(work, { recursive: true, force: true });
  rmSync(prefix, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  try {
    await build(work, prefix);
    if (!existsSync(library)) throw new Error(`the ${kind} build for ${id} left no ${libraryPath}`);
    writeFileSync(stampFile, stamp);
  } catch (error) {
    rmSync(prefix, { recursive: true, force: true });
    throw error;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return { prefix, library, seconds: (performance.now() - started) / 1000 };
}
