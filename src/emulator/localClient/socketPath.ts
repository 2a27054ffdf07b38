import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Where the local client listens, and how to clean up after it. */
export interface LocalClientSocket {
  /** The socket path (a Unix socket, or a named pipe on Windows). */
  path: string;
  /** Restricts the socket to its owner once it exists (no-op on Windows). */
  secure(): Promise<void>;
  /** Removes what was created for the socket. */
  remove(): Promise<void>;
}

/**
 * A socket named `discord-ipc-0` in a fresh directory only the owner can enter (0700), so no other local user
 * can reach the emulated desktop client; or, with `dir`, in that directory (the SDK's own scan then finds it
 * when `dir` is the platform's socket directory). Windows gets a uniquely named pipe.
 */
export async function createLocalClientSocket(dir: string | undefined): Promise<LocalClientSocket> {
  if (process.platform === 'win32') {
    const name = `\\\\?\\pipe\\discord-ipc-${process.pid}-${Date.now().toString(36)}`;
    return { path: name, secure: () => Promise.resolve(), remove: () => Promise.resolve() };
  }
  const ownDir = dir === undefined ? await mkdtemp(path.join(tmpdir(), 'sdkpp-ipc-')) : undefined;
  if (ownDir) await chmod(ownDir, 0o700);
  const socketPath = path.join(ownDir ?? dir ?? tmpdir(), 'discord-ipc-0');
  return {
    path: socketPath,
    secure: () => chmod(socketPath, 0o600),
    remove: async () => {
      await rm(socketPath, { force: true });
      if (ownDir) await rm(ownDir, { recursive: true, force: true });
    },
  };
}
