import { chmod, lstat, mkdtemp, rm, unlink } from 'node:fs/promises';
import { connect, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { RPC_SOCKET_SLOTS, rpcPipePath, rpcSocketName } from '@sdkpp/protocol';

/** Where the local client listens, and how to clean up after it. */
export interface LocalClientSocket {
  /** The socket path (a Unix socket, or a named pipe on Windows). */
  path: string;
  /** Removes what was created for the socket (the socket file and the private directory). */
  remove(): Promise<void>;
}

/** The desktop client's socket numbers, as the SDKs scan them (wire-protocols §3.1). */
const SOCKET_NUMBERS = Array.from({ length: RPC_SOCKET_SLOTS }, (_, slot) => slot);

/** How long an existing socket may take to accept a probe before it counts as in use. */
const PROBE_TIMEOUT_MS = 1_000;

/** Whether something accepts connections on a socket path (a running desktop client). */
function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(socketPath);
    const done = (alive: boolean): void => {
      clearTimeout(timer);
      probe.destroy();
      resolve(alive);
    };
    const timer = setTimeout(() => {
      done(true);
    }, PROBE_TIMEOUT_MS);
    probe.once('connect', () => {
      done(true);
    });
    probe.once('error', () => {
      done(false);
    });
  });
}

/** Listens on a path; rejects with the listen error (EADDRINUSE when taken). */
function listen(server: Server, socketPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => {
      reject(error);
    };
    server.once('error', onError);
    server.listen(socketPath, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

const isAddressInUse = (error: unknown): boolean => (error as { code?: unknown }).code === 'EADDRINUSE';

/**
 * Frees a Unix socket path left by a crashed process; returns false when the path is taken (a live socket,
 * or a file that is not a socket and so is never removed).
 */
async function claimUnixPath(socketPath: string): Promise<boolean> {
  const stats = await lstat(socketPath).catch(() => undefined);
  if (!stats) return true;
  if (!stats.isSocket() || (await answers(socketPath))) return false;
  await unlink(socketPath);
  return true;
}

/** Windows: the first free `\\?\pipe\discord-ipc-<n>`, as a desktop client would take it. */
async function listenOnPipe(server: Server): Promise<LocalClientSocket> {
  for (const n of SOCKET_NUMBERS) {
    const pipe = rpcPipePath(n);
    try {
      await listen(server, pipe);
      return { path: pipe, remove: () => Promise.resolve() };
    } catch (error) {
      if (!isAddressInUse(error)) throw error;
    }
  }
  throw new Error('every named pipe discord-ipc-0 … 9 is taken');
}

/**
 * Listens for the emulated desktop client. By default on `discord-ipc-0` in a fresh directory only the owner
 * can enter (0700), so no other local user and no real desktop client meets it; with `dir`, on the first free
 * `discord-ipc-<n>` there (a stale socket is removed, a live one skipped), so the SDK's own scan finds it when
 * `dir` is the platform's socket directory. The socket itself is made owner-only (0600). Windows gets the
 * first free named pipe `\\?\pipe\discord-ipc-<n>`.
 */
export async function listenOnLocalClientSocket(
  server: Server,
  dir: string | undefined,
): Promise<LocalClientSocket> {
  if (process.platform === 'win32') return listenOnPipe(server);
  const ownDir = dir === undefined ? await mkdtemp(path.join(tmpdir(), 'sdkpp-ipc-')) : undefined;
  const removeOwnDir = async (): Promise<void> => {
    if (ownDir) await rm(ownDir, { recursive: true, force: true });
  };
  try {
    if (ownDir) await chmod(ownDir, 0o700);
    const base = ownDir ?? dir ?? tmpdir();
    for (const n of SOCKET_NUMBERS) {
      const socketPath = path.join(base, rpcSocketName(n));
      if (!(await claimUnixPath(socketPath))) continue;
      try {
        await listen(server, socketPath);
      } catch (error) {
        if (isAddressInUse(error)) continue;
        throw error;
      }
      await chmod(socketPath, 0o600);
      return {
        path: socketPath,
        remove: async () => {
          await rm(socketPath, { force: true });
          await removeOwnDir();
        },
      };
    }
    throw new Error(`every socket discord-ipc-0 … 9 in ${base} is taken`);
  } catch (error) {
    await removeOwnDir();
    throw error;
  }
}
