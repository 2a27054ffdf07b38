import type { EmulatorLog } from '../log.js';
import { ExternalTokenError, identityKey, readExternalToken } from '../oauth/externalIdentity.js';
import type { IdTokenSigner } from '../oauth/idToken.js';
import type { OidcVerifier } from '../oauth/oidcVerifier.js';
import { ApiError, unknown } from '../platform/errors.js';
import type { EmulatorStore } from '../store/Store.js';
import { expandScopes } from '../store/scopes.js';
import type {
  ExternalAuthType,
  IdentityProvider,
  IdentityRecord,
  TokenOrigin,
  UserRecord,
} from '../store/types.js';

/** What the accounts service needs from the gateway: end a user's sessions, and tell them news. */
export interface SessionControl {
  /** Closes every session of the user with `code` (not resumable); returns how many. */
  endUserSessions(userId: string, code: number, reason: string): number;
  /** Dispatches an event to every session of the user. */
  dispatch(userId: string, event: string, data: unknown): void;
}

/** An identity as named by a request, before it is looked up. */
export interface IdentityRef {
  key: string;
  provider: IdentityProvider;
  subject: string;
  issuer: string | null;
  displayName: string | null;
}

/** The body of a provisional token response. */
export interface ProvisionalTokenResponse {
  token_type: 'Bearer';
  access_token: string;
  /** Only for OIDC identities, whose refresh_token grant the platform deprecates (see token.ts). */
  refresh_token?: string;
  expires_in: number;
  scope: string;
  id_token: string;
}

/** Gateway close code for a session whose credentials died. */
const AUTHENTICATION_FAILED = 4004;
/** Provisional tokens carry the communication bundle, as on the platform. */
const PROVISIONAL_SCOPE = 'sdk.social_layer';

/** Dependencies of {@link Accounts}. */
export interface AccountsDeps {
  store: EmulatorStore;
  sessions: SessionControl;
  signer: IdTokenSigner;
  /** The ID token issuer (the HTTP origin). */
  issuer: string;
  accessTokenTtlSeconds: number;
  log: EmulatorLog;
  /**
   * Moves what a merged provisional account had (friends, game friends, lobby memberships, direct messages)
   * to the full account, before the provisional account is removed.
   */
  migrateMergedUser?: (sourceId: string, destinationId: string) => void;
  /** A full account lost the app (revoked, unmerged or banned): the APPLICATION_DEAUTHORIZED webhook event. */
  deauthorized?: (user: UserRecord) => void;
  /** Verifies OIDC ID tokens when identity providers are configured; without it they are only decoded. */
  oidc?: OidcVerifier;
}

/**
 * Account life cycle across store and gateway: provisional accounts, merges, unmerges, revocation and
 * bans. Every rule that needs more than one table, or a side effect on live sessions, lives here so that
 * the HTTP routes and the emulator's control API behave identically.
 */
export class Accounts {
  readonly #d: AccountsDeps;

  constructor(deps: AccountsDeps) {
    this.#d = deps;
  }

  /** A signed ID token for `userId`. */
  idToken(userId: string, nonce: string | null): string {
    const iat = Math.floor(this.#d.store.now() / 1000);
    return this.#d.signer.sign({
      iss: this.#d.issuer,
      sub: userId,
      aud: this.#d.store.state.application.id,
      iat,
      exp: iat + this.#d.accessTokenTtlSeconds,
      ...(nonce !== null ? { nonce } : {}),
    });
  }

  /**
   * Revokes every token of the user and closes the user's gateway sessions. For a full account this is
   * also an unmerge: each linked game identity moves to a new provisional account.
   */
  revokeAll(userId: string): void {
    const { store } = this.#d;
    const user = store.user(userId);
    if (!user) throw new RangeError(`no user with id ${userId}`);
    const count = store.deleteUserTokens(userId);
    this.#d.sessions.endUserSessions(userId, AUTHENTICATION_FAILED, 'Authentication failed');
    this.#d.log.line('accounts', `${user.username}: ${count} token(s) revoked`);
    if (!user.provisional && !user.bot) {
      for (const identity of store.identitiesOf(userId)) this.#moveToNewProvisional(identity, false);
      this.#d.deauthorized?.(user);
    }
  }

  /**
   * Bans a user: tokens deleted, sessions closed (4004), and each linked identity moved to a new restricted
   * provisional account that can never be merged (530017).
   */
  ban(userId: string): void {
    const { store } = this.#d;
    const user = store.user(userId);
    if (!user) throw new RangeError(`no user with id ${userId}`);
    if (user.bot) throw new RangeError('the bot user cannot be banned');
    user.banned = true;
    store.deleteUserTokens(userId);
    this.#d.sessions.endUserSessions(userId, AUTHENTICATION_FAILED, 'Authentication failed');
    this.#d.log.line('accounts', `${user.username} banned`);
    for (const identity of store.identitiesOf(userId)) this.#moveToNewProvisional(identity, true);
    if (!user.provisional) this.#d.deauthorized?.(user);
  }

  /**
   * Names the identity behind an external token. `DISCORD_BOT_ISSUED_ACCESS_TOKEN` must be a live access
   * token from the bot endpoint; an OIDC token is verified against the configured identity providers when
   * there are any ({@link OidcVerifier}); other types are read by {@link readExternalToken}.
   */
  async resolveExternal(type: ExternalAuthType, token: string): Promise<IdentityRef> {
    const { store } = this.#d;
    if (type === 'DISCORD_BOT_ISSUED_ACCESS_TOKEN') {
      const access = store.accessToken(token);
      const identity =
        access?.origin === 'provisional-bot'
          ? store.identitiesOf(access.userId).find((i) => i.provider === 'DISCORD_BOT')
          : undefined;
      if (!identity) throw new ApiError(403, 50025, 'Invalid OAuth2 access token');
      const { key, provider, subject, issuer, displayName } = identity;
      return { key, provider, subject, issuer, displayName };
    }
    try {
      const oidc = this.#d.oidc;
      const claim =
        type === 'OIDC' && oidc?.enabled === true
          ? await oidc.verify(token, store.now())
          : readExternalToken(type, token, store.now());
      return { key: identityKey(claim.provider, claim.subject), ...claim };
    } catch (error) {
      if (error instanceof ExternalTokenError) throw new ApiError(400, error.code, error.message);
      throw error;
    }
  }

  /** The identity a bot names with `external_user_id`. */
  botIdentity(externalUserId: string, preferredName: string | null): IdentityRef {
    return {
      key: identityKey('DISCORD_BOT', externalUserId),
      provider: 'DISCORD_BOT',
      subject: externalUserId,
      issuer: null,
      displayName: preferredName,
    };
  }

  /**
   * Finds or creates the provisional account of an identity and issues it a token. An identity merged into
   * a full account answers 530010: that user must sign in through OAuth2.
   */
  provisionalToken(
    ref: IdentityRef,
    origin: Extract<TokenOrigin, 'provisional' | 'provisional-bot'>,
  ): ProvisionalTokenResponse {
    const { store } = this.#d;
    let identity = store.identity(ref.key);
    let user = identity ? store.user(identity.userId) : undefined;
    if (!identity || !user) {
      user = store.createProvisionalUser(ref.displayName);
      identity = { ...ref, displayName: user.globalName, userId: user.id };
      store.putIdentity(identity);
      this.#d.log.line('accounts', `provisional account ${user.username} created (${ref.provider})`);
    }
    if (!user.provisional) {
      throw new ApiError(400, 530010, 'User account is non-provisional and should be authed through OAuth2', {
        user_id: user.id,
        provider_type: identity.provider === 'DISCORD_BOT' ? 'DISCORD_BOT' : identity.provider,
        provider_id:
          identity.provider === 'DISCORD_BOT'
            ? store.state.application.id
            : (identity.issuer ?? identity.provider),
        provider_issued_user_id: identity.subject,
      });
    }
    // The document: "Provisional accounts with server-side OpenID Connect authentication: a refresh_token is
    // returned, but the OAuth2 refresh_token grant is deprecated for it". Other providers get none.
    const withRefresh = ref.provider === 'OIDC';
    const { access, refresh } = store.issueTokens({
      userId: user.id,
      scope: PROVISIONAL_SCOPE,
      scopes: expandScopes([PROVISIONAL_SCOPE]),
      ttlSeconds: this.#d.accessTokenTtlSeconds,
      origin,
      withRefresh,
      openid: true,
    });
    return {
      token_type: 'Bearer',
      access_token: access.token,
      ...(refresh ? { refresh_token: refresh.token } : {}),
      expires_in: this.#d.accessTokenTtlSeconds,
      scope: PROVISIONAL_SCOPE,
      id_token: this.idToken(user.id, null),
    };
  }

  /**
   * Checks that the identity can be merged into `destination`, throwing the platform's merge error if not.
   * Call before the authorization code is spent, then {@link Accounts.merge}.
   */
  checkMerge(destination: UserRecord, ref: IdentityRef): void {
    const { store } = this.#d;
    if (destination.provisional) throw new ApiError(400, 530016, 'Destination user is a provisional account');
    const identity = store.identity(ref.key);
    const source = identity ? store.user(identity.userId) : undefined;
    if (source && source.id !== destination.id) {
      if (source.restricted) throw new ApiError(400, 530017, 'Source user is banned and cannot be merged');
      if (!source.provisional) throw new ApiError(400, 530014, 'Source user is not a provisional account');
    }
    const other = store.identitiesOf(destination.id).find((i) => i.key !== ref.key);
    if (other) throw new ApiError(400, 530023, 'User already has an identity for this application');
  }

  /**
   * Merges the identity's provisional account into `destination`: the identity now names the full account,
   * the provisional account's tokens and sessions end and the account is removed. Merging an identity that
   * already belongs to `destination` changes nothing (a retried merge must not fail).
   */
  merge(destination: UserRecord, ref: IdentityRef): void {
    const { store } = this.#d;
    this.checkMerge(destination, ref);
    const identity: IdentityRecord = store.identity(ref.key) ?? { ...ref, userId: destination.id };
    const sourceId = identity.userId;
    if (sourceId !== destination.id) {
      store.deleteUserTokens(sourceId);
      this.#d.sessions.endUserSessions(sourceId, AUTHENTICATION_FAILED, 'Authentication failed');
      this.#d.migrateMergedUser?.(sourceId, destination.id);
      store.deleteUser(sourceId);
    }
    identity.userId = destination.id;
    store.putIdentity(identity);
    this.#d.log.line('accounts', `identity (${identity.provider}) merged into ${destination.username}`);
    if (sourceId !== destination.id) {
      this.#d.sessions.dispatch(destination.id, 'USER_MERGE_OPERATION_COMPLETED', {
        merge_operation_id: store.nextId(),
        source_user_id: sourceId,
      });
    }
  }

  /**
   * Unlinks an identity from its full account: the account loses every token of the app and its sessions,
   * and a new provisional account (new id) takes the identity. Errors: 10013 unknown identity, 50229 when
   * the identity is still provisional.
   */
  unmerge(ref: IdentityRef): UserRecord {
    const { store } = this.#d;
    const identity = store.identity(ref.key);
    const user = identity ? store.user(identity.userId) : undefined;
    if (!identity || !user) throw unknown('User');
    if (user.provisional) throw new ApiError(400, 50229, 'Invalid user type');
    store.deleteUserTokens(user.id);
    this.#d.sessions.endUserSessions(user.id, AUTHENTICATION_FAILED, 'Authentication failed');
    const fresh = this.#moveToNewProvisional(identity, false);
    this.#d.deauthorized?.(user);
    return fresh;
  }

  #moveToNewProvisional(identity: IdentityRecord, restricted: boolean): UserRecord {
    const { store } = this.#d;
    const fresh = store.createProvisionalUser(identity.displayName, restricted);
    identity.userId = fresh.id;
    store.putIdentity(identity);
    this.#d.log.line(
      'accounts',
      `identity (${identity.provider}) moved to ${restricted ? 'restricted ' : ''}provisional account ${fresh.username}`,
    );
    return fresh;
  }
}
