import type { DeviceAuthorizationArgs as CoreDeviceAuthorizationArgs } from '../src/index.js';
import { nullobjError } from './AuthorizationArgs.js';
import { idToString, type Uint64Like } from './ids.js';

/**
 * Arguments of `Client.GetTokenFromDevice`, as the C++ SDK's `DeviceAuthorizationArgs`: a getter named as each
 * field and a `Set<Field>` setter.
 */
export class DeviceAuthorizationArgs {
  /** An uninitialised instance; {@link DeviceAuthorizationArgs.IsValid} is false. */
  static readonly nullobj: DeviceAuthorizationArgs = new DeviceAuthorizationArgs(undefined, false);
  #valid: boolean;
  #clientId = 0n;
  #scopes = '';

  /** Creates empty arguments, or copies `other` (the C++ copy constructor). */
  constructor(other?: DeviceAuthorizationArgs, valid = true) {
    this.#valid = other ? other.#valid : valid;
    if (other) {
      this.#clientId = other.#clientId;
      this.#scopes = other.#scopes;
    }
  }

  #writable(): void {
    if (!this.#valid) throw nullobjError('DeviceAuthorizationArgs');
  }

  /** True unless this is `nullobj` (the C++ `operator bool`). */
  IsValid(): boolean {
    return this.#valid;
  }
  /** The application id; 0 (optional) means the client's application id. */
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

  /** @internal The arguments in the core API's shape. */
  toCore(): CoreDeviceAuthorizationArgs {
    const args: CoreDeviceAuthorizationArgs = {};
    if (this.#clientId !== 0n) args.clientId = idToString(this.#clientId);
    if (this.#scopes !== '') args.scopes = this.#scopes;
    return args;
  }
}
