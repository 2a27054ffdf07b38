import {
  AuthenticationCodeChallengeMethod,
  IntegrationType,
  type AuthorizationArgs as CoreAuthorizationArgs,
} from '../src/index.js';
import { idToString, type Uint64Like } from './ids.js';

/**
 * Thrown when a setter is called on a `nullobj`, which the C++ SDK leaves uninitialised.
 * @internal Shared by the bindings' argument classes.
 */
export function nullobjError(type: string): TypeError {
  return new TypeError(`${type}.nullobj is read-only`);
}

/** The challenge half of a PKCE pair, as the C++ SDK's `AuthorizationCodeChallenge`. */
export class AuthorizationCodeChallenge {
  /** An uninitialised instance; {@link AuthorizationCodeChallenge.IsValid} is false. */
  static readonly nullobj: AuthorizationCodeChallenge = new AuthorizationCodeChallenge(undefined, false);
  #valid: boolean;
  #method = AuthenticationCodeChallengeMethod.S256;
  #challenge = '';

  /** Creates an empty challenge, or copies `other`. */
  constructor(other?: AuthorizationCodeChallenge, valid = true) {
    this.#valid = other ? other.#valid : valid;
    if (other) {
      this.#method = other.#method;
      this.#challenge = other.#challenge;
    }
  }
  /** True unless this is `nullobj` (the C++ `operator bool`). */
  IsValid(): boolean {
    return this.#valid;
  }
  /** The method used to make the challenge; always S256. */
  Method(): AuthenticationCodeChallengeMethod {
    return this.#method;
  }
  /** Sets the method. */
  SetMethod(value: AuthenticationCodeChallengeMethod): void {
    if (!this.#valid) throw nullobjError('AuthorizationCodeChallenge');
    this.#method = value;
  }
  /** The challenge value. */
  Challenge(): string {
    return this.#challenge;
  }
  /** Sets the challenge value. */
  SetChallenge(value: string): void {
    if (!this.#valid) throw nullobjError('AuthorizationCodeChallenge');
    this.#challenge = value;
  }
}

/** A PKCE pair, as the C++ SDK's `AuthorizationCodeVerifier`. */
export class AuthorizationCodeVerifier {
  /** An uninitialised instance. */
  static readonly nullobj: AuthorizationCodeVerifier = new AuthorizationCodeVerifier(undefined, false);
  #valid: boolean;
  #challenge = new AuthorizationCodeChallenge();
  #verifier = '';

  /** Creates an empty pair, or copies `other`. */
  constructor(other?: AuthorizationCodeVerifier, valid = true) {
    this.#valid = other ? other.#valid : valid;
    if (other) {
      this.#challenge = new AuthorizationCodeChallenge(other.#challenge);
      this.#verifier = other.#verifier;
    }
  }
  /** True unless this is `nullobj`. */
  IsValid(): boolean {
    return this.#valid;
  }
  /** The challenge, for {@link AuthorizationArgs.SetCodeChallenge}. */
  Challenge(): AuthorizationCodeChallenge {
    return new AuthorizationCodeChallenge(this.#challenge);
  }
  /** Sets the challenge. */
  SetChallenge(value: AuthorizationCodeChallenge): void {
    if (!this.#valid) throw nullobjError('AuthorizationCodeVerifier');
    this.#challenge = new AuthorizationCodeChallenge(value);
  }
  /** The verifier, for `Client.GetToken`. Secret. */
  Verifier(): string {
    return this.#verifier;
  }
  /** Sets the verifier. */
  SetVerifier(value: string): void {
    if (!this.#valid) throw nullobjError('AuthorizationCodeVerifier');
    this.#verifier = value;
  }
}

/**
 * Arguments of `Client.Authorize`, as the C++ SDK's `AuthorizationArgs`: a getter named as each field and a
 * `Set<Field>` setter; optional fields take `undefined` to clear.
 */
export class AuthorizationArgs {
  /** An uninitialised instance; {@link AuthorizationArgs.IsValid} is false. */
  static readonly nullobj: AuthorizationArgs = new AuthorizationArgs(undefined, false);
  #valid: boolean;
  #clientId = 0n;
  #scopes = '';
  #state: string | undefined;
  #nonce: string | undefined;
  #codeChallenge: AuthorizationCodeChallenge | undefined;
  #integrationType: IntegrationType | undefined;
  #customSchemeParam: string | undefined;

  /** Creates empty arguments, or copies `other` (the C++ copy constructor). */
  constructor(other?: AuthorizationArgs, valid = true) {
    this.#valid = other ? other.#valid : valid;
    if (other) {
      this.#clientId = other.#clientId;
      this.#scopes = other.#scopes;
      this.#state = other.#state;
      this.#nonce = other.#nonce;
      this.#codeChallenge = other.#codeChallenge && new AuthorizationCodeChallenge(other.#codeChallenge);
      this.#integrationType = other.#integrationType;
      this.#customSchemeParam = other.#customSchemeParam;
    }
  }

  #writable(): void {
    if (!this.#valid) throw nullobjError('AuthorizationArgs');
  }

  /** True unless this is `nullobj` (the C++ `operator bool`). */
  IsValid(): boolean {
    return this.#valid;
  }
  /** The application id; 0 means the client's application id. */
  ClientId(): bigint {
    return this.#clientId;
  }
  /** Sets the application id. */
  SetClientId(value: Uint64Like): void {
    this.#writable();
    this.#clientId = BigInt(idToString(value));
  }
  /** Space-separated scopes; empty means `Client.GetDefaultCommunicationScopes()`. */
  Scopes(): string {
    return this.#scopes;
  }
  /** Sets the scopes. */
  SetScopes(value: string): void {
    this.#writable();
    this.#scopes = value;
  }
  /** The OAuth2 state; unset means a secure random value generated and checked by the SDK. */
  State(): string | undefined {
    return this.#state;
  }
  /** Sets or clears the state. */
  SetState(value: string | undefined): void {
    this.#writable();
    this.#state = value;
  }
  /** The OpenID Connect nonce. */
  Nonce(): string | undefined {
    return this.#nonce;
  }
  /** Sets or clears the nonce. */
  SetNonce(value: string | undefined): void {
    this.#writable();
    this.#nonce = value;
  }
  /** The PKCE challenge. */
  CodeChallenge(): AuthorizationCodeChallenge | undefined {
    return this.#codeChallenge && new AuthorizationCodeChallenge(this.#codeChallenge);
  }
  /** Sets or clears the PKCE challenge. */
  SetCodeChallenge(value: AuthorizationCodeChallenge | undefined): void {
    this.#writable();
    this.#codeChallenge = value && new AuthorizationCodeChallenge(value);
  }
  /** The installation type. */
  IntegrationType(): IntegrationType | undefined {
    return this.#integrationType;
  }
  /** Sets or clears the installation type. */
  SetIntegrationType(value: IntegrationType | undefined): void {
    this.#writable();
    this.#integrationType = value;
  }
  /** The custom URI scheme of the redirect (`<scheme>:/authorize/callback`). */
  CustomSchemeParam(): string | undefined {
    return this.#customSchemeParam;
  }
  /** Sets or clears the custom URI scheme. */
  SetCustomSchemeParam(value: string | undefined): void {
    this.#writable();
    this.#customSchemeParam = value;
  }

  /** @internal The arguments in the core API's shape. */
  toCore(): CoreAuthorizationArgs {
    const args: CoreAuthorizationArgs = {};
    if (this.#clientId !== 0n) args.clientId = idToString(this.#clientId);
    if (this.#scopes !== '') args.scopes = this.#scopes;
    if (this.#state !== undefined) args.state = this.#state;
    if (this.#nonce !== undefined) args.nonce = this.#nonce;
    if (this.#codeChallenge)
      args.codeChallenge = {
        method: this.#codeChallenge.Method(),
        challenge: this.#codeChallenge.Challenge(),
      };
    if (this.#integrationType !== undefined) args.integrationType = this.#integrationType;
    if (this.#customSchemeParam !== undefined) args.customSchemeParam = this.#customSchemeParam;
    return args;
  }
}
