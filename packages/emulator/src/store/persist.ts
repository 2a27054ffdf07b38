/**
 * The lasting part of the emulator's world, as saved by `--state FILE`: accounts, the social graph, lobbies,
 * guilds, messages and tokens. What lives only while the process runs is not in it: gateway and voice
 * sessions, presence, calls (none of them is in the store), and authorization codes (valid 100 s).
 */
import { MAX_JSON_DEPTH } from '@sdkpp/protocol';
import type { EmulatorSavedState } from '../types.js';
import { completeApplication, migrateGuildsFromV1 } from './migrate.js';
import { checkStoreState, describeIssues, formatPath, plainDataProblem, type StateIssue } from './schema.js';
import type { StoreState } from './types.js';

/** The `format` field of a saved state. */
export const SAVED_STATE_FORMAT = 'sdkpp-emulator-state';
/** The version this build writes and reads; a later one fails to load with a message. */
export const SAVED_STATE_VERSION = 2;

/** The collections of {@link StoreState}: records by id (or code, token, key), saved one by one. */
const TABLES = [
  'users',
  'accessTokens',
  'refreshTokens',
  'codes',
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
  'commands',
  'appEmojis',
  'skus',
  'entitlements',
  'subscriptions',
] as const satisfies readonly (keyof StoreState)[];

/** One of {@link TABLES}. */
export type StateCollection = (typeof TABLES)[number];

/** A record a save left out, and why. */
export interface OmittedRecord {
  /** The collection it is in (`channelMessages`, `guilds`, …). */
  collection: StateCollection;
  /** Its key there: the record's id (a token, code or key for some collections). */
  id: string;
  /** Why: the serialisation error, or the problem that would stop the saved state from loading. */
  reason: string;
}

/** How many omitted records a message names before it only counts the rest. */
const OMITTED_NAMED = 10;

/** The omitted records in one line: `channelMessages 123 (Maximum call stack size exceeded), …`. */
export function describeOmitted(omitted: readonly OmittedRecord[]): string {
  const named = omitted.slice(0, OMITTED_NAMED).map((o) => `${o.collection} ${o.id} (${o.reason})`);
  const more = omitted.length - named.length;
  return `${named.join(', ')}${more > 0 ? `, and ${more} more` : ''}`;
}

/**
 * Thrown by `exportState()` when some records cannot be saved: each is named in `omitted` and the message,
 * and `partial` holds everything else, a state that loads.
 */
export class StateExportError extends Error {
  constructor(
    /** The state without the omitted records. */
    readonly partial: EmulatorSavedState,
    /** The records left out, with the reason for each. */
    readonly omitted: readonly OmittedRecord[],
  ) {
    super(
      `${omitted.length} record${omitted.length === 1 ? '' : 's'} of the state could not be saved: ${describeOmitted(omitted)}`,
    );
    this.name = 'StateExportError';
  }
}

/** A JSON copy of `value`, made the way a save writes it. */
function jsonCopy(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The saved form of `state` at `now` (Unix ms), without codes and expired access tokens. Each record is
 * serialised on its own and the whole is then checked against the schema a load applies, so one record
 * that cannot be written (a BigInt, a cycle, nesting that overflows `JSON.stringify`) or would not load
 * again costs that record, not the save: such records are left out, and a {@link StateExportError} carries
 * the rest.
 *
 * @throws StateExportError when records were left out; an Error when the application or the signing key
 *   itself cannot be saved.
 */
export function exportStoreState(state: StoreState, now: number): EmulatorSavedState {
  const data: Record<string, unknown> = {
    version: state.version,
    application: jsonCopy(state.application),
    signingKey: jsonCopy(state.signingKey),
  };
  const omitted: OmittedRecord[] = [];
  for (const collection of TABLES) {
    const entries: [string, unknown][] = [];
    // Codes live 100 s; a restart ends them.
    const records: Record<string, unknown> = collection === 'codes' ? {} : state[collection];
    for (const [id, record] of Object.entries(records)) {
      if (collection === 'accessTokens' && (record as { expiresAt: number }).expiresAt <= now) continue;
      try {
        entries.push([id, jsonCopy(record)]);
      } catch (error) {
        omitted.push({ collection, id, reason: error instanceof Error ? error.message : String(error) });
      }
    }
    // fromEntries defines keys as own properties: a "__proto__" id stays a key (and is refused below).
    data[collection] = Object.fromEntries(entries);
  }
  omitted.push(...dropInvalid(data));
  const saved: EmulatorSavedState = {
    format: SAVED_STATE_FORMAT,
    version: SAVED_STATE_VERSION,
    savedAt: new Date(now).toISOString(),
    data,
  };
  if (omitted.length > 0) throw new StateExportError(saved, omitted);
  return saved;
}

/**
 * Removes from `data` the records the schema refuses until it accepts the rest (a guild left out takes its
 * channels with it, and they their messages), and returns them. Bounded: each round removes a record.
 *
 * @throws Error for a problem outside any record (the application, the signing key).
 */
function dropInvalid(data: Record<string, unknown>): OmittedRecord[] {
  const dropped: OmittedRecord[] = [];
  for (;;) {
    const checked = checkStoreState(data);
    if ('state' in checked) return dropped;
    const culprits = new Map<string, OmittedRecord>();
    for (const issue of checked.issues) {
      const culprit = recordOf(issue);
      if (!culprit) throw new Error(`the state cannot be saved: ${describeIssues([issue], 'data')}`);
      culprits.set(`${culprit.collection} ${culprit.id}`, culprit);
    }
    for (const culprit of culprits.values()) {
      Reflect.deleteProperty(data[culprit.collection] as Record<string, unknown>, culprit.id);
      dropped.push(culprit);
    }
  }
}

/** The record an issue is in (its path starts with a collection and a key), with the issue as the reason. */
function recordOf(issue: StateIssue): OmittedRecord | undefined {
  const [collection, id, ...rest] = issue.path;
  if (typeof id !== 'string' || !(TABLES as readonly unknown[]).includes(collection)) return undefined;
  const where = rest.length === 0 ? '' : `${formatPath(rest)}: `;
  return { collection: collection as StateCollection, id, reason: `${where}${issue.message}` };
}

/**
 * How deep a whole saved state may nest: the data, a collection, a record and its fields, around values that
 * may themselves nest {@link MAX_JSON_DEPTH} levels (an embed). Checked before anything recursive touches it.
 */
const MAX_STATE_DEPTH = MAX_JSON_DEPTH + 8;

/**
 * The store state of a saved one. The version 1 migration runs first; then every field is checked against
 * the schema (schema.ts), so a damaged or hand-edited state is refused whole, naming the first problems by
 * path, and never half loaded. Nothing is live after a restart: lobbies start their idle timeout, and
 * activity invites (tied to gateway sessions that are gone) can no longer be accepted.
 *
 * @throws RangeError naming what is wrong: another format, a later version, or the path of a bad field.
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
  if (!isObject(saved.data)) throw new RangeError('the saved state has no "data" object');
  // Cloning and the migration recurse: what they would choke on is refused first, by path.
  const problem = plainDataProblem(saved.data, MAX_STATE_DEPTH);
  if (problem) throw new RangeError(`the saved state is damaged: ${describeIssues([problem], 'data')}`);
  const copy = structuredClone(saved.data);
  if (saved.version === 1) {
    if (!isObject(copy.guilds))
      throw new RangeError('the saved state is damaged: data.guilds: must be an object');
    migrateGuildsFromV1(copy.guilds, now);
  }
  copy.version = 2;
  // Parts older states lack: the platform's defaults (portal settings off), and no bot features.
  if (isObject(copy.application)) completeApplication(copy.application);
  for (const table of ['commands', 'appEmojis', 'skus', 'entitlements', 'subscriptions'] as const) {
    copy[table] ??= {};
  }
  copy.codes = {};
  const checked = checkStoreState(copy);
  if ('issues' in checked) {
    throw new RangeError(`the saved state is damaged: ${describeIssues(checked.issues, 'data')}`);
  }
  const state = checked.state;
  // Nobody is connected after a restart: each lobby's idle timeout starts again now.
  for (const lobby of Object.values(state.lobbies)) lobby.idleSince = now;
  for (const message of Object.values(state.messages)) if (message.activity) message.activity.valid = false;
  return state;
}
