/** RPC error codes (wire-protocols §3.6). */
export const RpcErrorCode = {
  UnknownError: 1000,
  InvalidPayload: 4000,
  InvalidCommand: 4002,
  InvalidGuild: 4003,
  InvalidEvent: 4004,
  InvalidChannel: 4005,
  InvalidPermissions: 4006,
  InvalidClientId: 4007,
  InvalidToken: 4009,
  InvalidUser: 4010,
  OAuth2Error: 5000,
} as const;

/** CLOSE codes of the IPC transport (wire-protocols §3.6). */
export const RpcCloseCode = {
  Normal: 1000,
  Unsupported: 1003,
  /** The game stopped reading and too much waited for it (the emulator's choice of code). */
  SlowConsumer: 1008,
  InvalidClientId: 4000,
  InvalidVersion: 4004,
} as const;

/** Events a client may subscribe to. */
export const SUBSCRIBABLE_EVENTS: ReadonlySet<string> = new Set([
  'READY',
  'ERROR',
  'GUILD_STATUS',
  'ACTIVITY_JOIN',
  'ACTIVITY_JOIN_REQUEST',
  'ACTIVITY_INVITE',
  'ACTIVITY_SPECTATE',
  'AUTHORIZE_REQUEST',
  'CURRENT_USER_UPDATE',
  'RELATIONSHIP_UPDATE',
]);

/** A command the client sent. */
export interface RpcCommand {
  cmd: string;
  args: Record<string, unknown>;
  nonce: string;
  evt?: string;
}

/** Thrown by a command handler to answer with an ERROR payload. */
export class RpcCommandError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'RpcCommandError';
  }
}

/** Reads a FRAME body as a command, or explains what is wrong with it. */
export function readCommand(body: unknown): RpcCommand | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'a command must be an object';
  const { cmd, args, nonce, evt } = body as Record<string, unknown>;
  if (typeof cmd !== 'string' || cmd.length === 0 || cmd.length > 64) return 'a command needs "cmd"';
  if (typeof nonce !== 'string' || nonce.length === 0 || nonce.length > 128)
    return 'a command needs a "nonce"';
  const argsObject = args === undefined || args === null ? {} : args;
  if (typeof argsObject !== 'object' || Array.isArray(argsObject)) return '"args" must be an object';
  return {
    cmd,
    nonce,
    args: argsObject as Record<string, unknown>,
    ...(typeof evt === 'string' ? { evt } : {}),
  };
}

/** The reply to a command that succeeded. */
export function commandReply(command: RpcCommand, data: unknown): Record<string, unknown> {
  return { cmd: command.cmd, data, evt: null, nonce: command.nonce };
}

/**
 * The ERROR reply to a command that failed: an {@link RpcCommandError}'s code and message, or 1000 for anything
 * else. Returns the frame's body and the code (for the log line, which never carries the message).
 */
export function errorReply(
  command: RpcCommand,
  error: unknown,
): { body: Record<string, unknown>; code: number } {
  const code = error instanceof RpcCommandError ? error.code : RpcErrorCode.UnknownError;
  const message = error instanceof Error ? error.message : 'Unknown error';
  return { body: { cmd: command.cmd, evt: 'ERROR', nonce: command.nonce, data: { code, message } }, code };
}

/** An event sent to a subscribed client. */
export function dispatchBody(evt: string, data: unknown): Record<string, unknown> {
  return { cmd: 'DISPATCH', evt, data, nonce: null };
}

/** READY's data: the protocol version, the client's configuration (the emulator's API) and the user. */
export function readyData(apiEndpoint: string, user: Record<string, unknown>): Record<string, unknown> {
  return {
    v: 1,
    config: { cdn_host: 'cdn.discordapp.com', api_endpoint: apiEndpoint, environment: 'production' },
    user,
  };
}
