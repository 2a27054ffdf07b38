/*
 * The C++ SDK's UserHandle and RelationshipHandle over the core handles: each leads to the other
 * (`Relationship()`, `User()`), so they share a file rather than import each other.
 */
import {
  AvatarType,
  ExternalIdentityProviderType,
  RelationshipType,
  StatusType,
  type RelationshipHandle as CoreRelationshipHandle,
  type UserApplicationProfile,
  type UserHandle as CoreUserHandle,
} from '../src/index.js';
import { Activity } from './Activity.js';
import { idToBigInt } from './ids.js';

/** A live view of a user, as the C++ SDK's `UserHandle`. */
export class UserHandle {
  /** An invalid handle. */
  static readonly nullobj: UserHandle = new UserHandle(undefined);
  readonly #core: CoreUserHandle | undefined;

  /** @internal Created by the client. */
  constructor(core: CoreUserHandle | undefined) {
    this.#core = core;
  }
  /** The name of an avatar image type, e.g. `"Png"` (the C++ `UserHandle::AvatarTypeToString`). */
  static AvatarTypeToString(type: AvatarType): string {
    return AvatarType[type] ?? '';
  }
  /** The C++ `UserHandle::AvatarType` enum. */
  static readonly AvatarType = AvatarType;
  /** True unless this is `nullobj`. */
  IsValid(): boolean {
    return this.#core !== undefined;
  }
  /** The user's id. */
  Id(): bigint {
    return idToBigInt(this.#core?.id);
  }
  /** The unique username. */
  Username(): string {
    return this.#core?.username ?? '';
  }
  /** The global name, if the user set one. */
  GlobalName(): string | undefined {
    return this.#core?.globalName ?? undefined;
  }
  /** The name to show: the global name, else the username. */
  DisplayName(): string {
    return this.#core?.displayName ?? '';
  }
  /** The avatar hash, if any. */
  Avatar(): string | undefined {
    return this.#core?.avatar ?? undefined;
  }
  /** True for a provisional account. */
  IsProvisional(): boolean {
    return this.#core?.isProvisional ?? false;
  }
  /** The avatar's CDN URL (the default avatar when the user has none). */
  AvatarUrl(animatedType: AvatarType = AvatarType.Gif, staticType: AvatarType = AvatarType.Png): string {
    return this.#core?.avatarUrl(animatedType, staticType) ?? '';
  }
  /** The user's online status. */
  Status(): StatusType {
    return this.#core?.status ?? StatusType.Unknown;
  }
  /** The user's rich presence in this game, if any. */
  GameActivity(): Activity | undefined {
    const activity = this.#core?.gameActivity;
    return activity ? Activity.fromCore(activity) : undefined;
  }
  /** The user's profiles from external identity providers (empty unless READY carried them). */
  UserApplicationProfiles(): UserApplicationProfileHandle[] {
    return (this.#core?.userApplicationProfiles ?? []).map((p) => new UserApplicationProfileHandle(p));
  }
  /** The relationship with this user. */
  Relationship(): RelationshipHandle {
    const core = this.#core;
    return core ? new RelationshipHandle(core.relationship) : RelationshipHandle.nullobj;
  }
}

/** The relationship with another user, as the C++ SDK's `RelationshipHandle`. */
export class RelationshipHandle {
  /** An invalid handle. */
  static readonly nullobj: RelationshipHandle = new RelationshipHandle(undefined);
  readonly #core: CoreRelationshipHandle | undefined;

  /** @internal Created by the client. */
  constructor(core: CoreRelationshipHandle | undefined) {
    this.#core = core;
  }
  /** True unless this is `nullobj`. */
  IsValid(): boolean {
    return this.#core !== undefined;
  }
  /** The other user's id. */
  Id(): bigint {
    return idToBigInt(this.#core?.id);
  }
  /** The platform relationship. */
  DiscordRelationshipType(): RelationshipType {
    return this.#core?.discordRelationshipType ?? RelationshipType.None;
  }
  /** This game's relationship. */
  GameRelationshipType(): RelationshipType {
    return this.#core?.gameRelationshipType ?? RelationshipType.None;
  }
  /** Whether an incoming request was flagged as spam. */
  IsSpamRequest(): boolean {
    return this.#core?.isSpamRequest ?? false;
  }
  /** The other user, when known. */
  User(): UserHandle | undefined {
    const user = this.#core?.user;
    return user ? new UserHandle(user) : undefined;
  }
}

/**
 * A profile from an external identity provider (Steam, Epic Online Services, an OIDC provider…), as the C++
 * SDK's `UserApplicationProfileHandle`: who the player is in the game's own identity system.
 */
export class UserApplicationProfileHandle {
  readonly #profile: UserApplicationProfile;

  /** @internal Created by `UserHandle.UserApplicationProfiles()`. */
  constructor(profile: UserApplicationProfile) {
    this.#profile = profile;
  }
  /** The in-game avatar hash, or `''`. */
  AvatarHash(): string {
    return this.#profile.avatarHash;
  }
  /** Metadata the developer set, or `''`. */
  Metadata(): string {
    return this.#profile.metadata;
  }
  /** The provider's id, if it has one (an OIDC issuer; the application id for the game's backend). */
  ProviderId(): string | undefined {
    return this.#profile.providerId ?? undefined;
  }
  /** The user's id at the provider. */
  ProviderIssuedUserId(): string {
    return this.#profile.providerIssuedUserId;
  }
  /** The kind of provider. */
  ProviderType(): ExternalIdentityProviderType {
    return this.#profile.providerType;
  }
  /** The in-game username, or `''`. */
  Username(): string {
    return this.#profile.username;
  }
}
