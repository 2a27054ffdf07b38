/**
 * Where running emulators tell `sdkpp emulator call` how to reach them: one small JSON file per emulator
 * (its HTTP origin, pid and dashboard token) in a folder only its user can enter. The token is the
 * dashboard's secret, so the folder and each file must be the user's own and closed to others (0700, 0600);
 * anything else found there is ignored, never trusted. A file left by an emulator that was killed names a
 * process that no longer exists and is removed when seen.
 */
import { randomBytes } from 'node:crypto';
import { constants, unlinkSync } from 'node:fs';
import { chmod, lstat, mkdir, open, readdir, rename, unlink } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';

import { z } from 'zod';

/** The folder or a file of the registry cannot be used; the message says why and what to do. */
export class RegistryError extends Error {
  override name = 'RegistryError';
}

/** One running emulator as its file describes it. */
export interface Registration {
  /** The file it was read from. */
  file: string;
  /** The emulator's HTTP origin, e.g. `http://127.0.0.1:24680`. */
  http: string;
  /** The process that serves it. */
  pid: number;
  /** The application's id, to tell emulators apart. */
  applicationId: string;
  /** When it started (ISO 8601). */
  startedAt: string;
  /** The dashboard's token: never print it. */
  token: string;
}

/** What {@link scanRegistry} found. */
export interface RegistryScan {
  /** The registry folder. */
  dir: string;
  /** Emulators whose process is alive. */
  live: Registration[];
  /** Files of emulators whose process is gone; they were removed. */
  stale: Registration[];
  /** Files not trusted, and why (another owner, open to others, not a registration, …). */
  ignored: { file: string; reason: string }[];
}

/** A registration this process wrote; `remove` deletes it (again harmlessly). */
export interface OwnRegistration {
  /** The file. */
  file: string;
  /** Deletes the file; safe to call more than once. */
  remove(): void;
}

const FILE_NAME = /^emulator-[0-9]+-[0-9]+\.json$/;
/** A registration is a few hundred bytes; anything much larger is not one. */
const MAX_FILE_BYTES = 4096;
/** Flags that refuse to follow a planted link or block on a planted FIFO (0 where the OS has none). */
const SAFE_OPEN = (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

const FILE_SCHEMA = z.strictObject({
  format: z.literal('sdkpp-emulator-registration'),
  version: z.literal(1),
  http: z.string(),
  pid: z.int().positive(),
  applicationId: z.string().max(32),
  startedAt: z.string().max(40),
  token: z.string().min(16).max(256),
});

function currentUid(): number | undefined {
  return process.getuid?.();
}

/** Whether a URL's host is this machine's loopback (where the dashboard answers). */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  return host === 'localhost' || host === '[::1]' || /^127\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}$/.test(host);
}

/**
 * The registry folder: `$XDG_RUNTIME_DIR/sdkpp` (a per-user folder the session manager made), else
 * `<tmpdir>/sdkpp-<uid>` (`sdkpp-<username>` where there are no uids).
 */
export function registryDir(env: NodeJS.ProcessEnv = process.env): string {
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime !== undefined && path.isAbsolute(runtime)) return path.join(runtime, 'sdkpp');
  return path.join(tmpdir(), `sdkpp-${String(currentUid() ?? userInfo().username)}`);
}

/**
 * Makes sure `dir` is a folder of this user that nobody else may enter (creating it when `create`); false when
 * it does not exist and `create` is off. In a shared /tmp another user could have made it first: such a folder
 * is refused, never used.
 */
async function trustedDir(dir: string, create: boolean): Promise<boolean> {
  if (create) {
    try {
      await mkdir(dir, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new RegistryError(`cannot make ${dir}: ${(error as Error).message}`);
      }
    }
  }
  let stats;
  try {
    stats = await lstat(dir);
  } catch (error) {
    if (!create && (error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new RegistryError(`cannot read ${dir}: ${(error as Error).message}`);
  }
  if (!stats.isDirectory()) throw new RegistryError(`${dir} is not a folder (a link or a file?); remove it`);
  const uid = currentUid();
  if (uid === undefined) return true;
  if (stats.uid !== uid) {
    throw new RegistryError(
      `${dir} belongs to another user (uid ${stats.uid}), so nothing in it is trusted; remove it, or set XDG_RUNTIME_DIR`,
    );
  }
  // Our own folder, but open to others (made by hand?): close it; the files are checked one by one anyway.
  if ((stats.mode & 0o077) !== 0) await chmod(dir, 0o700);
  return true;
}

/**
 * Writes the registration of an emulator this process serves, owner-only and atomically (a reader never sees
 * half a file). The caller removes it when the emulator stops; if the process exits first, an exit hook does.
 */
export async function registerEmulator(
  emulator: { http: string; applicationId: string },
  token: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<OwnRegistration> {
  if (!isLoopbackUrl(emulator.http)) {
    throw new RegistryError(
      `it listens on ${emulator.http}, and the dashboard answers loopback clients only`,
    );
  }
  const dir = registryDir(env);
  await trustedDir(dir, true);
  const file = path.join(dir, `emulator-${process.pid}-${new URL(emulator.http).port}.json`);
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  const record: z.input<typeof FILE_SCHEMA> = {
    format: 'sdkpp-emulator-registration',
    version: 1,
    http: emulator.http,
    pid: process.pid,
    applicationId: emulator.applicationId,
    startedAt: new Date().toISOString(),
    token,
  };
  try {
    const handle = await open(
      temporary,
      constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | SAFE_OPEN,
      0o600,
    );
    try {
      await handle.writeFile(`${JSON.stringify(record)}\n`);
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw new RegistryError(`cannot write ${file}: ${(error as Error).message}`);
  }
  let removed = false;
  const remove = (): void => {
    if (removed) return;
    removed = true;
    process.off('exit', remove);
    try {
      unlinkSync(file);
    } catch {
      // Already gone (removed by hand, or as stale by a reader that saw this process exit).
    }
  };
  process.once('exit', remove);
  return { file, remove };
}

/** Reads one file, through a descriptor so that what is checked is what is read. */
async function readRegistration(file: string): Promise<Registration | { ignored: string } | null> {
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | SAFE_OPEN);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null; // removed meanwhile
    return { ignored: code === 'ELOOP' ? 'it is a symbolic link' : `cannot open it (${String(code)})` };
  }
  try {
    const stats = await handle.stat();
    const uid = currentUid();
    if (!stats.isFile()) return { ignored: 'not a regular file' };
    if (uid !== undefined && stats.uid !== uid)
      return { ignored: `it belongs to another user (uid ${stats.uid})` };
    if (uid !== undefined && (stats.mode & 0o077) !== 0) {
      return { ignored: `others may read or change it (mode ${(stats.mode & 0o777).toString(8)})` };
    }
    if (stats.size > MAX_FILE_BYTES) return { ignored: 'too large to be a registration' };
    let parsed;
    try {
      parsed = FILE_SCHEMA.safeParse(JSON.parse(await handle.readFile('utf8')));
    } catch {
      return { ignored: 'not JSON' };
    }
    if (!parsed.success) return { ignored: 'not an emulator registration this version reads' };
    if (!isLoopbackUrl(parsed.data.http)) return { ignored: 'its address is not a loopback one' };
    const { http, pid, applicationId, startedAt, token } = parsed.data;
    return { file, http: new URL(http).origin, pid, applicationId, startedAt, token };
  } finally {
    await handle.close();
  }
}

/** Whether a process exists (one of another user counts: the pid is taken). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Every registration in the folder: the live ones, the stale ones (removed now) and the untrusted files. */
export async function scanRegistry(env: NodeJS.ProcessEnv = process.env): Promise<RegistryScan> {
  const dir = registryDir(env);
  const scan: RegistryScan = { dir, live: [], stale: [], ignored: [] };
  if (!(await trustedDir(dir, false))) return scan;
  for (const name of (await readdir(dir)).filter((n) => FILE_NAME.test(n)).sort()) {
    const file = path.join(dir, name);
    const read = await readRegistration(file);
    if (read === null) continue;
    if ('ignored' in read) scan.ignored.push({ file, reason: read.ignored });
    else if (processAlive(read.pid)) scan.live.push(read);
    else {
      scan.stale.push(read);
      await forgetRegistration(read);
    }
  }
  return scan;
}

/** Removes a registration found stale (its emulator does not answer, or is another one now). */
export async function forgetRegistration(registration: Registration): Promise<void> {
  await unlink(registration.file).catch(() => undefined);
}

/**
 * Whether two HTTP origins name the same emulator: the same port, and the same host or both loopback
 * (`localhost:24680` is `127.0.0.1:24680`).
 */
export function sameEmulator(a: string, b: string): boolean {
  const x = new URL(a);
  const y = new URL(b);
  if (x.protocol !== y.protocol || x.port !== y.port) return false;
  return x.hostname === y.hostname || (isLoopbackUrl(a) && isLoopbackUrl(b));
}
