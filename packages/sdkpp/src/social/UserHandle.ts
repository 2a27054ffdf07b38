/*
 * The two live views over one entry of the client's UserStore: a user, and the signed-in user's relationship
 * with them. Each leads to the other (`UserHandle.relationship`, `RelationshipHandle.user`), so they share a
 * file rather than import each other.
 */
import type { Activity } from '../presence/Activity.js';
import { activityFromWire } from '../presence/activityFromWire.js';
import { StatusType, statusFromWire } from '../presence/StatusType.js';
import { RelationshipType } from './enums.js';
import type { UserApplicationProfile } from './UserApplicationProfile.js';
import type { UserStore, WireUser } from './UserStore.js';

/** Image formats of avatar URLs, with the C++ SDK's `UserHandle::AvatarType` values. */
export enum AvatarType {
  /** Animated GIF; only for animated avatars. */
  Gif = 0,
  /** WebP, animated or static. */
  Webp = 1,
  /** PNG; the default for static avatars. */
  Png = 2,
  /** JPEG (`.jpg`). */
  Jpeg = 3,
}

const AVATAR_EXTENSIONS: Readonly<Record<AvatarType, string>> = {
  [AvatarType.Gif]: 'gif',
  [AvatarType.Webp]: 'webp',
  [AvatarType.Png]: 'png',
  [AvatarType.Jpeg]: 'jpg',
};

const CDN = 'https://cdn.discordapp.com';

/** User flag of provisional accounts (wire-protocols §4: 1 << 23). */
const PROVISIONAL_ACCOUNT_FLAG = 1 << 23;

/**
 * A live, read-only view of a user: it reads the client's store on each access, so it reflects later updates.
 * Once the user is forgotten (after `disconnect()`), every getter returns its default value.
 */
export class UserHandle {
  readonly #store: UserStore;
  /** The user's id (a snowflake). */
  readonly id: string;

  /** @internal Handles are created by the client. */
  constructor(store: UserStore, id: string) {
    this.#store = store;
    this.id = id;
  }

  get #data(): WireUser | undefined {
    return this.#store.get(this.id);
  }

  /** The unique username. */
  get username(): string {
    return this.#data?.username ?? '';
  }

  /** The global display name, or null when the user has none. */
  get globalName(): string | null {
    return this.#data?.global_name ?? null;
  }

  /** The name to show: the global name, else the username. */
  get displayName(): string {
    return this.globalName ?? this.username;
  }

  /** The avatar hash, or null for the default avatar. */
  get avatar(): string | null {
    return this.#data?.avatar ?? null;
  }

  /** True for a provisional account (no full platform account linked yet). */
  get isProvisional(): boolean {
    return ((this.#data?.flags ?? 0) & PROVISIONAL_ACCOUNT_FLAG) !== 0;
  }

  /**
   * The user's profiles from external identity providers in this game: the identity they signed in with
   * (Steam, Epic Online Services, an OIDC provider, the game's backend…). The platform sends them in READY for
   * the signed-in user and the users in their friends list; empty for anyone else.
   */
  get userApplicationProfiles(): readonly UserApplicationProfile[] {
    return this.#store.applicationProfiles(this.id);
  }

  /** 0 unless the application holds `identify.premium`. */
  get premiumType(): number {
    return this.#data?.premium_type ?? 0;
  }

  /**
   * The avatar's CDN URL: an animated avatar (hash starting `a_`) in `animatedType`, a still one in
   * `staticType`, or the default avatar when the user has none.
   */
  avatarUrl(animatedType: AvatarType = AvatarType.Gif, staticType: AvatarType = AvatarType.Png): string {
    const hash = this.avatar;
    if (hash === null) {
      // The platform's default avatars: six images chosen by the id's timestamp bits.
      const index = /^[0-9]+$/.test(this.id) ? Number((BigInt(this.id) >> 22n) % 6n) : 0;
      return `${CDN}/embed/avatars/${index}.png`;
    }
    const type = hash.startsWith('a_') ? animatedType : staticType;
    return `${CDN}/avatars/${this.id}/${hash}.${AVATAR_EXTENSIONS[type]}`;
  }

  /** The user's guild tag (1–4 characters) shown next to their name, or null. */
  get primaryGuildTag(): string | null {
    const tag = this.#data?.primary_guild?.tag;
    return typeof tag === 'string' && tag.length >= 1 && tag.length <= 4 ? tag : null;
  }

  /**
   * The user's online status as friends see it. A user you blocked shows as Blocked; a user whose presence
   * the client has not heard of shows as Offline.
   */
  get status(): StatusType {
    if (this.#store.relationship(this.id).discord === RelationshipType.Blocked) return StatusType.Blocked;
    const presence = this.#store.presence(this.id);
    return presence ? statusFromWire(presence.status) : StatusType.Offline;
  }

  /** The user's rich presence in this game, or null (activities in other applications are not exposed). */
  get gameActivity(): Activity | null {
    const applicationId = this.#store.applicationId();
    const wire = this.#store
      .presence(this.id)
      ?.activities.find((a) => applicationId !== undefined && a.application_id === applicationId);
    if (!wire) return null;
    return activityFromWire(wire);
  }

  /** The relationship between the signed-in user and this user. */
  get relationship(): RelationshipHandle {
    return new RelationshipHandle(this.#store, this.id);
  }

  /** A plain snapshot, for logging or serialising. */
  toJSON(): {
    /** The user id. */
    id: string;
    /** The unique username. */
    username: string;
    /** The name to show: the global name, else the username. */
    displayName: string;
    /** True for a provisional account (no full platform account linked yet). */
    isProvisional: boolean;
    /** The online status as friends see it; Blocked for a user you blocked. */
    status: StatusType;
  } {
    return {
      id: this.id,
      username: this.username,
      displayName: this.displayName,
      isProvisional: this.isProvisional,
      status: this.status,
    };
  }
}

/**
 * A live view of how the signed-in user relates to another user, in the platform's friend graph and in
 * this game's own friend graph. It reads the client's store on each access.
 */
export class RelationshipHandle {
  readonly #store: UserStore;
  /** The other user's id. */
  readonly id: string;

  /** @internal Handles are created by the client. */
  constructor(store: UserStore, id: string) {
    this.#store = store;
    this.id = id;
  }

  /** The platform relationship (friend, pending, blocked, or None). */
  get discordRelationshipType(): RelationshipType {
    return this.#store.relationship(this.id).discord;
  }

  /** The game relationship of this application (friend, pending, or None). */
  get gameRelationshipType(): RelationshipType {
    return this.#store.relationship(this.id).game;
  }

  /** Whether an incoming request was flagged as spam. */
  get isSpamRequest(): boolean {
    return this.#store.relationship(this.id).isSpamRequest;
  }

  /** True when the two are friends in either graph. */
  get isFriend(): boolean {
    return (
      this.discordRelationshipType === RelationshipType.Friend ||
      this.gameRelationshipType === RelationshipType.Friend
    );
  }

  /** The other user, when the client knows them. */
  get user(): UserHandle | undefined {
    return this.#store.get(this.id) ? new UserHandle(this.#store, this.id) : undefined;
  }

  /** A plain snapshot. */
  toJSON(): {
    /** The other user's id. */
    id: string;
    /** The platform relationship (friend, pending, blocked, or None). */
    discord: RelationshipType;
    /** The game relationship of this application (friend, pending, or None). */
    game: RelationshipType;
  } {
    return { id: this.id, discord: this.discordRelationshipType, game: this.gameRelationshipType };
  }
}
