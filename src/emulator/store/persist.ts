/**
 * The lasting part of the emulator's world, as saved by `--state FILE`: accounts, the social graph, lobbies,
 * guilds, messages and tokens. What lives only while the process runs is not in it: gateway and voice
 * sessions, presence, calls (none of them is in the store), and authorization codes (valid 100 s).
 */
import { migrateGuildsFromV1 } from './migrate.js';
import type { StoreState } from './types.js';

/** The `format` field of a saved state. */
export const SAVED_STATE_FORMAT = 'sdkpp-emulator-state';
/** The version this build writes and reads; a later one fails to load with a message. */
export const SAVED_STATE_VERSION = 2;

/**
 * A saved emulator state (`Emulator.exportState()`, `EmulatorOptions.state`): plain JSON. It holds the bot
 * token, the client secret, users' access and refresh tokens and the ID token signing key, so treat it as a
 * secret of your local setup.
 */
export interface EmulatorSavedState {
  /** Always `'sdkpp-emulator-state'`. */
  format: string;
  /** The format version (2; version 1 files, from before guild roles, are read too). */
  version: number;
  /** When it was saved, ISO 8601. */
  savedAt: string;
  /** The saved world; its shape belongs to the emulator and may change with `version`. */
  data: Record<string, unknown>;
}

/** The tables of {@link StoreState} a saved state must carry, each a JSON object. */
const TABLES = [
  'users',
  'accessTokens',
  'refreshTokens',
  'identities',
  'relationships',
  'gameRelationships',
  'messages',
  'lobbies',
  'lobbyMessages',
  'guilds',
  'channels',
  'channelMessages',
  'channelInvites',
] as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The saved form of `state` at `now` (Unix ms): a deep copy without codes and expired access tokens. */
export function exportStoreState(state: StoreState, now: number): EmulatorSavedState {
  const data = structuredClone(state);
  data.codes = {};
  for (const [token, record] of Object.entries(data.accessTokens)) {
    if (record.expiresAt <= now) Reflect.deleteProperty(data.accessTokens, token);
  }
  return {
    format: SAVED_STATE_FORMAT,
    version: SAVED_STATE_VERSION,
    savedAt: new Date(now).toISOString(),
    data: data as unknown as Record<string, unknown>,
  };
}

/**
 * The store state of a saved one, checked enough that a wrong file fails here with a message rather than
 * deep inside a request. Nothing is live after a restart: lobbies start their idle timeout, and activity
 * invites (tied to gateway sessions that are gone) can no longer be accepted.
 *
 * @throws RangeError naming what is wrong: another format, a later version, a missing or malformed part.
 */
export function importStoreState(saved: unknown, now: number): StoreState {
  if (!isObject(saved) || saved.format !== SAVED_STATE_FORMAT) {
    throw new RangeError(`not a saved emulator state (its "format" is not "${SAVED_STATE_FORMAT}")`);
  }
  if (typeof saved.version !== 'number' || !Number.isInteger(saved.version) || saved.version < 1) {
    throw new RangeError('the saved state has no valid "version"');
  }
  if (saved.version > SAVED_STATE_VERSION) {
    throw new RangeError(
      `the saved state is version ${saved.version}, written by a later sdkpp; this one reads version ${SAVED_STATE_VERSION}`,
    );
  }
  const data = saved.data;
  if (!isObject(data)) throw new RangeError('the saved state has no "data" object');
  const application = data.application;
  if (
    !isObject(application) ||
    !['id', 'name', 'clientSecret', 'botToken'].every((key) => typeof application[key] === 'string') ||
    !Array.isArray(application.customSchemes)
  ) {
    throw new RangeError('the saved state has no valid "application"');
  }
  if (!isObject(data.signingKey)) throw new RangeError('the saved state has no "signingKey"');
  for (const table of TABLES) {
    if (!isObject(data[table])) throw new RangeError(`the saved state's "${table}" is not an object`);
  }
  for (const [id, user] of Object.entries(data.users as Record<string, unknown>)) {
    if (!isObject(user) || user.id !== id || typeof user.username !== 'string') {
      throw new RangeError(`the saved state's user ${id} is malformed`);
    }
  }
  if (!isObject((data.users as Record<string, unknown>)[application.id as string])) {
    throw new RangeError("the saved state lacks the application's bot user");
  }
  const copy = structuredClone(data);
  if (saved.version === 1) migrateGuildsFromV1(copy.guilds as Record<string, unknown>, now);
  const state = copy as unknown as StoreState;
  state.version = 2;
  // Version 1 states have neither portal setting: the platform's defaults, off.
  state.application.privilegedIntents ??= 0;
  state.application.channelObfuscation ??= false;
  state.commands ??= {};
  state.appEmojis ??= {};
  state.skus ??= {};
  state.entitlements ??= {};
  state.subscriptions ??= {};
  state.codes = {};
  // Nobody is connected after a restart: each lobby's idle timeout starts again now.
  for (const lobby of Object.values(state.lobbies)) lobby.idleSince = now;
  for (const message of Object.values(state.messages)) if (message.activity) message.activity.valid = false;
  return state;
}
