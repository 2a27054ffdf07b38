import { randomUUID } from 'node:crypto';

import { randomHex, randomToken } from '../random.js';
import type { SnowflakeGenerator } from '../snowflake.js';
import { capitalise, isValidGlobalName, isValidUsername, seedUsername, seedUsernameIndex } from './names.js';
import type {
  AccessTokenRecord,
  CodeRecord,
  IdentityRecord,
  RefreshTokenRecord,
  StoreState,
  TokenOrigin,
  UserRecord,
} from './types.js';

/** User flag of provisional accounts. */
export const PROVISIONAL_ACCOUNT_FLAG = 1 << 23;

/** How long a used code is remembered after its expiry, so a late replay still revokes its tokens. */
const USED_CODE_MEMORY_MS = 10 * 60_000;

/**
 * Reads a record by a key that may come from a client. Plain objects inherit `__proto__`, `constructor`
 * and friends, so a bare `record[key]` would let a request name a prototype member as a token.
 */
function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Removes a key from a record (a dynamic `delete`, spelled so that linters accept it). */
function remove(record: Record<string, unknown>, key: string): void {
  Reflect.deleteProperty(record, key);
}

/** Profile fields an admin may change. */
export interface UserPatch {
  username?: string;
  globalName?: string;
  avatar?: string | null;
  primaryGuildTag?: string | null;
  premiumType?: 0 | 1 | 2 | 3;
}

/** What {@link EmulatorStore.issueTokens} creates. */
export interface IssuedTokens {
  access: AccessTokenRecord;
  refresh: RefreshTokenRecord | null;
}

/**
 * The emulator's in-memory world: users, tokens, codes and identities over a plain {@link StoreState}.
 * It knows nothing of HTTP or sockets; side effects such as closing gateway sessions live in the accounts
 * service, which calls this.
 */
export class EmulatorStore {
  readonly state: StoreState;
  readonly #ids: SnowflakeGenerator;
  readonly #now: () => number;
  /**
   * Username → user id, kept in step with `state.users` by every method that adds, renames or removes a
   * user, so a lookup by name does not scan every user (seeding thousands of users was cubic without it).
   */
  readonly #byUsername = new Map<string, string>();
  /** Seed usernames below this index are known to be taken; the next free one is searched from here. */
  #seedCursor = 0;

  constructor(state: StoreState, ids: SnowflakeGenerator, now: () => number) {
    this.state = state;
    this.#ids = ids;
    this.#now = now;
    for (const user of Object.values(state.users)) this.#byUsername.set(user.username, user.id);
  }

  /** A new snowflake id. */
  nextId(): string {
    return this.#ids.next();
  }

  /** The current time, Unix ms. */
  now(): number {
    return this.#now();
  }

  /** A deep copy of the state, safe to serialise or keep. */
  snapshot(): StoreState {
    return structuredClone(this.state);
  }

  // ── users ────────────────────────────────────────────────────────────────────────────────────────────

  /** A user by id. */
  user(id: string): UserRecord | undefined {
    return own(this.state.users, id);
  }

  /** A user by id or (case-insensitive) username. */
  findUser(idOrUsername: string): UserRecord | undefined {
    const byId = this.user(idOrUsername);
    if (byId) return byId;
    const id = this.#byUsername.get(idOrUsername.toLowerCase());
    return id === undefined ? undefined : this.user(id);
  }

  /** Every user, oldest first. */
  allUsers(): UserRecord[] {
    return Object.values(this.state.users).sort(
      (a, b) => a.createdAt - b.createdAt || (BigInt(a.id) < BigInt(b.id) ? -1 : 1),
    );
  }

  /** Full (non-provisional, non-bot) users, oldest first. */
  fullUsers(): UserRecord[] {
    return this.allUsers().filter((u) => !u.provisional && !u.bot);
  }

  /** The application's bot user. */
  botUser(): UserRecord {
    const bot = this.user(this.state.application.id);
    if (!bot) throw new Error('the bot user is missing from the store');
    return bot;
  }

  /**
   * The next seed username not taken yet. The search resumes where the last one ended, and a seed name freed
   * by a rename or a deletion moves the cursor back to it, so seeding stays linear and picks the same names
   * as a search from the start would.
   */
  nextSeedUsername(): string {
    for (; ; this.#seedCursor += 1) {
      const name = seedUsername(this.#seedCursor);
      if (!this.findUser(name)) return name;
    }
  }

  /** Adds a full user. Throws on a taken or malformed username. */
  createFullUser(options: { username?: string; globalName?: string } = {}): UserRecord {
    const username = options.username?.toLowerCase() ?? this.nextSeedUsername();
    if (!isValidUsername(username)) {
      throw new RangeError(`"${username}" is not a valid username (2–32 of a-z, 0-9, "_" and ".")`);
    }
    if (this.findUser(username)) throw new RangeError(`the username "${username}" is taken`);
    const globalName = options.globalName ?? capitalise(username);
    if (!isValidGlobalName(globalName)) throw new RangeError('globalName must be 1–32 characters');
    return this.#insertUser({ username, globalName, provisional: false, bot: false, restricted: false });
  }

  /** Adds a provisional user with a generated username. */
  createProvisionalUser(displayName: string | null, restricted = false): UserRecord {
    let username: string;
    do username = `provisional_${randomHex(4)}`;
    while (this.findUser(username));
    const globalName = displayName ?? `Player ${username.slice(-4).toUpperCase()}`;
    return this.#insertUser({ username, globalName, provisional: true, bot: false, restricted });
  }

  /** Adds the bot user, whose id is the application id as on the platform. */
  createBotUser(): UserRecord {
    const app = this.state.application;
    return this.#insertUser(
      { username: app.name, globalName: null, provisional: false, bot: true, restricted: false },
      app.id,
    );
  }

  /** Changes a user's profile. Throws on a bad or taken username, a bad avatar hash or tag. */
  updateUser(id: string, patch: UserPatch): UserRecord {
    const user = this.user(id);
    if (!user) throw new RangeError(`no user with id ${id}`);
    if (patch.username !== undefined) {
      const username = patch.username.toLowerCase();
      if (!isValidUsername(username)) throw new RangeError(`"${username}" is not a valid username`);
      const other = this.findUser(username);
      if (other && other.id !== id) throw new RangeError(`the username "${username}" is taken`);
      this.#forgetUsername(user);
      user.username = username;
      this.#byUsername.set(username, id);
    }
    if (patch.globalName !== undefined) {
      if (!isValidGlobalName(patch.globalName)) throw new RangeError('globalName must be 1–32 characters');
      user.globalName = patch.globalName;
    }
    if (patch.avatar !== undefined) {
      if (patch.avatar !== null && !/^(a_)?[0-9a-f]{32}$/.test(patch.avatar)) {
        throw new RangeError('avatar must be a 32-digit hex hash, "a_" first for an animated one, or null');
      }
      user.avatar = patch.avatar;
    }
    if (patch.primaryGuildTag !== undefined) {
      const tag = patch.primaryGuildTag;
      if (tag !== null && (tag.length < 1 || tag.length > 4)) {
        throw new RangeError('primaryGuildTag must be 1–4 characters or null');
      }
      user.primaryGuildTag = tag;
    }
    if (patch.premiumType !== undefined) {
      if (![0, 1, 2, 3].includes(patch.premiumType)) throw new RangeError('premiumType must be 0–3');
      user.premiumType = patch.premiumType;
    }
    return user;
  }

  /** Removes a user (after a merge, the provisional source account). */
  deleteUser(id: string): void {
    const user = this.user(id);
    if (user) this.#forgetUsername(user);
    remove(this.state.users, id);
  }

  /** The user flags as sent on the wire. */
  userFlags(user: UserRecord): number {
    return user.provisional ? PROVISIONAL_ACCOUNT_FLAG : 0;
  }

  /** Adds a user with a fresh profile; `id` is a new snowflake unless given (the bot's is the app id). */
  #insertUser(
    fields: Pick<UserRecord, 'username' | 'globalName' | 'provisional' | 'bot' | 'restricted'>,
    id: string = this.nextId(),
  ): UserRecord {
    const user: UserRecord = {
      id,
      ...fields,
      banned: false,
      createdAt: this.#now(),
      avatar: null,
      primaryGuildTag: null,
      premiumType: 0,
    };
    this.#addUser(user);
    return user;
  }

  #forgetUsername(user: UserRecord): void {
    if (this.#byUsername.get(user.username) !== user.id) return;
    this.#byUsername.delete(user.username);
    const index = seedUsernameIndex(user.username);
    if (index !== undefined && index < this.#seedCursor) this.#seedCursor = index;
  }

  #addUser(user: UserRecord): void {
    this.state.users[user.id] = user;
    this.#byUsername.set(user.username, user.id);
  }

  // ── tokens ───────────────────────────────────────────────────────────────────────────────────────────

  /** Issues an access token, plus a refresh token when `withRefresh`. */
  issueTokens(fields: {
    userId: string;
    scope: string;
    scopes: string[];
    ttlSeconds: number;
    origin: TokenOrigin;
    grantId?: string;
    withRefresh: boolean;
    openid: boolean;
    /** The child application of a publisher-level child token. */
    applicationId?: string;
  }): IssuedTokens {
    const grantId = fields.grantId ?? randomUUID();
    const access: AccessTokenRecord = {
      token: randomToken(),
      userId: fields.userId,
      scope: fields.scope,
      scopes: [...fields.scopes],
      expiresAt: this.#now() + fields.ttlSeconds * 1000,
      origin: fields.origin,
      grantId,
      ...(fields.applicationId === undefined ? {} : { applicationId: fields.applicationId }),
    };
    this.state.accessTokens[access.token] = access;
    let refresh: RefreshTokenRecord | null = null;
    if (fields.withRefresh) {
      refresh = {
        token: randomToken(),
        userId: fields.userId,
        scope: fields.scope,
        scopes: [...fields.scopes],
        grantId,
        accessToken: access.token,
        openid: fields.openid,
      };
      this.state.refreshTokens[refresh.token] = refresh;
    }
    return { access, refresh };
  }

  /** A live (unexpired) access token. Expired ones are deleted on sight. */
  accessToken(token: string): AccessTokenRecord | undefined {
    const record = own(this.state.accessTokens, token);
    if (!record) return undefined;
    if (record.expiresAt <= this.#now()) {
      remove(this.state.accessTokens, token);
      return undefined;
    }
    return record;
  }

  /** A refresh token. */
  refreshToken(token: string): RefreshTokenRecord | undefined {
    return own(this.state.refreshTokens, token);
  }

  /** Deletes one access token. */
  deleteAccessToken(token: string): void {
    remove(this.state.accessTokens, token);
  }

  /** Deletes one refresh token. */
  deleteRefreshToken(token: string): void {
    remove(this.state.refreshTokens, token);
  }

  /** Deletes every access and refresh token of a user; returns how many went. */
  deleteUserTokens(userId: string): number {
    return this.#deleteTokensWhere((t) => t.userId === userId);
  }

  /** Deletes every token of one authorization (a code and its refreshes); returns how many went. */
  deleteGrantTokens(grantId: string): number {
    return this.#deleteTokensWhere((t) => t.grantId === grantId);
  }

  #deleteTokensWhere(match: (t: { userId: string; grantId: string }) => boolean): number {
    let count = 0;
    for (const table of [this.state.accessTokens, this.state.refreshTokens] as Record<
      string,
      { userId: string; grantId: string }
    >[]) {
      for (const [token, record] of Object.entries(table)) {
        if (match(record)) {
          remove(table, token);
          count += 1;
        }
      }
    }
    return count;
  }

  // ── codes ────────────────────────────────────────────────────────────────────────────────────────────

  /** Stores a new authorization code. */
  createCode(fields: Omit<CodeRecord, 'code' | 'usedAt' | 'grantId'>): CodeRecord {
    this.sweepCodes();
    const record: CodeRecord = { ...fields, code: randomToken(), usedAt: null, grantId: randomUUID() };
    this.state.codes[record.code] = record;
    return record;
  }

  /** A code, used or not, expired or not: the caller decides what each case means. */
  code(code: string): CodeRecord | undefined {
    return own(this.state.codes, code);
  }

  /** Forgets codes that can no longer matter. */
  sweepCodes(): void {
    const now = this.#now();
    for (const [code, record] of Object.entries(this.state.codes)) {
      const keepUntil = record.usedAt === null ? record.expiresAt : record.expiresAt + USED_CODE_MEMORY_MS;
      if (keepUntil <= now) remove(this.state.codes, code);
    }
  }

  // ── identities ───────────────────────────────────────────────────────────────────────────────────────

  /** An identity by key. */
  identity(key: string): IdentityRecord | undefined {
    return own(this.state.identities, key);
  }

  /** Stores or replaces an identity. */
  putIdentity(identity: IdentityRecord): void {
    this.state.identities[identity.key] = identity;
  }

  /** The identities linked to a user. */
  identitiesOf(userId: string): IdentityRecord[] {
    return Object.values(this.state.identities).filter((i) => i.userId === userId);
  }
}
