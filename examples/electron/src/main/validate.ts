import {
  MAX_LOBBY_SECRET_LENGTH,
  MAX_MESSAGE_LENGTH,
  MAX_MICROPHONE_RATE,
  MIN_MICROPHONE_RATE,
} from '../shared/api.js';

/** An argument the renderer sent that the main process refuses; becomes an `invalid-argument` answer. */
export class InvalidArgument extends Error {}

/** Checks one argument and returns it typed, or throws {@link InvalidArgument}. */
export type Check<T> = (value: unknown, name: string) => T;

const SNOWFLAKE = /^[0-9]{1,20}$/;
const USERNAME = /^[a-z0-9_.]{2,32}$/;

/** What a refused value was, for the message: its type, never its content (which may be anything). */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** A user or lobby id: a snowflake (digits only). */
export const snowflake: Check<string> = (value, name) => {
  if (typeof value !== 'string' || !SNOWFLAKE.test(value)) {
    throw new InvalidArgument(`${name} must be an id of 1–20 digits, got ${describe(value)}`);
  }
  return value;
};

/** A platform username (lower case letters, digits, `_` and `.`, 2–32 characters). */
export const username: Check<string> = (value, name) => {
  if (typeof value !== 'string' || !USERNAME.test(value)) {
    throw new InvalidArgument(`${name} must be a username (2–32 of a-z 0-9 _ .), got ${describe(value)}`);
  }
  return value;
};

/** Message text: 1–2000 characters, not only blanks. */
export const messageContent: Check<string> = (value, name) => {
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_MESSAGE_LENGTH) {
    throw new InvalidArgument(
      `${name} must be text of 1–${MAX_MESSAGE_LENGTH} characters, got ${describe(value)}`,
    );
  }
  return value;
};

/** A lobby secret: 1–250 printable characters. */
export const lobbySecret: Check<string> = (value, name) => {
  if (
    typeof value !== 'string' ||
    value.length < 1 ||
    value.length > MAX_LOBBY_SECRET_LENGTH ||
    /\p{Cc}/u.test(value)
  ) {
    throw new InvalidArgument(
      `${name} must be 1–${MAX_LOBBY_SECRET_LENGTH} printable characters, got ${describe(value)}`,
    );
  }
  return value;
};

/**
 * The argument list, when it has exactly `count` entries: extras are refused as well, so a renderer cannot
 * smuggle anything past the checks.
 */
export function arity(args: readonly unknown[], count: number): readonly unknown[] {
  if (args.length !== count) {
    throw new InvalidArgument(`expected ${count} argument(s), got ${args.length}`);
  }
  return args;
}

/** One chunk of the renderer's microphone: mono Float32 samples, at most one second at `sampleRate`. */
export function microphoneChunk(
  samples: unknown,
  sampleRate: unknown,
): { samples: Float32Array; sampleRate: number } {
  if (
    typeof sampleRate !== 'number' ||
    !Number.isInteger(sampleRate) ||
    sampleRate < MIN_MICROPHONE_RATE ||
    sampleRate > MAX_MICROPHONE_RATE
  )
    throw new InvalidArgument(
      `sampleRate must be an integer ${MIN_MICROPHONE_RATE}–${MAX_MICROPHONE_RATE}, got ${describe(sampleRate)}`,
    );
  if (!(samples instanceof Float32Array) || samples.length > sampleRate)
    throw new InvalidArgument(
      `samples must be a Float32Array of at most one second, got ${describe(samples)}`,
    );
  return { samples, sampleRate };
}

/** An audio device id as the SDK lists them: 1–512 printable characters (the handler checks it is listed). */
export const deviceId: Check<string> = (value, name) => {
  if (typeof value !== 'string' || value.length === 0 || value.length > 512 || /\p{Cc}/u.test(value)) {
    throw new InvalidArgument(`${name} must be a device id from getAudioDevices, got ${describe(value)}`);
  }
  return value;
};
