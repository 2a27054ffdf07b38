import path from 'node:path';

// Where a desktop client listens for games (wire-protocols §3.1): the SDK scans these paths, the emulator's
// local client takes the first free one.

/** How many numbered sockets a local client may listen on: `discord-ipc-0` … `discord-ipc-9`. */
export const RPC_SOCKET_SLOTS = 10;

/** What the socket path depends on; defaults to this process's platform and environment. */
export interface RpcPathEnvironment {
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
}

/**
 * The directory that holds the IPC sockets on Unix: the first set variable of XDG_RUNTIME_DIR, TMPDIR, TMP,
 * TEMP, else `/tmp`, without a trailing slash (wire-protocols §3.1).
 */
export function rpcSocketDirectory(env: NodeJS.ProcessEnv = process.env): string {
  const dir =
    [env.XDG_RUNTIME_DIR, env.TMPDIR, env.TMP, env.TEMP].find(
      (value) => value !== undefined && value !== '',
    ) ?? '/tmp';
  return dir.length > 1 ? dir.replace(/\/+$/, '') : dir;
}

/** The file name of slot `n`'s socket: `discord-ipc-<n>`. */
export function rpcSocketName(slot: number): string {
  return `discord-ipc-${slot}`;
}

/** Slot `n`'s named pipe on Windows: `\\?\pipe\discord-ipc-<n>`. */
export function rpcPipePath(slot: number): string {
  return `\\\\?\\pipe\\${rpcSocketName(slot)}`;
}

/** The socket path of slot `n`: a named pipe on Windows, a Unix socket elsewhere. */
export function rpcSocketPath(slot: number, environment: RpcPathEnvironment = {}): string {
  if (!Number.isInteger(slot) || slot < 0 || slot >= RPC_SOCKET_SLOTS)
    throw new RangeError(`RPC socket slot must be 0–${RPC_SOCKET_SLOTS - 1}`);
  const platform = environment.platform ?? process.platform;
  if (platform === 'win32') return rpcPipePath(slot);
  return path.posix.join(rpcSocketDirectory(environment.env ?? process.env), rpcSocketName(slot));
}

/** Every socket path to try, in order: slots 0 to 9. */
export function rpcSocketCandidates(environment: RpcPathEnvironment = {}): string[] {
  return Array.from({ length: RPC_SOCKET_SLOTS }, (_, slot) => rpcSocketPath(slot, environment));
}
