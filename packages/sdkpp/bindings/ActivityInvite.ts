import { ActivityActionTypes, type ActivityInvite as CoreActivityInvite } from '../src/index.js';
import { idToBigInt, idToString, type Uint64Like } from './ids.js';

/** An activity invite or join request, as the C++ SDK's `ActivityInvite`. */
export class ActivityInvite {
  #core: CoreActivityInvite;

  /** An empty invite, or a copy of one. */
  constructor(other?: ActivityInvite) {
    this.#core = other
      ? { ...other.#core }
      : {
          senderId: '',
          channelId: '',
          messageId: '',
          type: ActivityActionTypes.Invalid,
          applicationId: '',
          parentApplicationId: '',
          partyId: '',
          sessionId: '',
          isValid: false,
        };
  }

  /** @internal */
  static fromCore(core: CoreActivityInvite): ActivityInvite {
    const invite = new ActivityInvite();
    invite.#core = { ...core };
    return invite;
  }
  /** @internal */
  toCore(): CoreActivityInvite {
    return { ...this.#core };
  }

  /** Who sent it. */
  SenderId(): bigint {
    return idToBigInt(this.#core.senderId);
  }
  /** Sets who sent it. */
  SetSenderId(value: Uint64Like): void {
    this.#core.senderId = idToString(value);
  }
  /** The channel it arrived in. */
  ChannelId(): bigint {
    return idToBigInt(this.#core.channelId);
  }
  /** Sets the channel. */
  SetChannelId(value: Uint64Like): void {
    this.#core.channelId = idToString(value);
  }
  /** The message that carries it. */
  MessageId(): bigint {
    return idToBigInt(this.#core.messageId);
  }
  /** Sets the message. */
  SetMessageId(value: Uint64Like): void {
    this.#core.messageId = idToString(value);
  }
  /** Join or JoinRequest. */
  Type(): ActivityActionTypes {
    return this.#core.type;
  }
  /** Sets the type. */
  SetType(value: ActivityActionTypes): void {
    this.#core.type = value;
  }
  /** The application the invite is for. */
  ApplicationId(): bigint {
    return idToBigInt(this.#core.applicationId);
  }
  /** Sets the application. */
  SetApplicationId(value: Uint64Like): void {
    this.#core.applicationId = idToString(value);
  }
  /** The parent application of a publisher's suite, or 0. */
  ParentApplicationId(): bigint {
    return idToBigInt(this.#core.parentApplicationId);
  }
  /** Sets the parent application. */
  SetParentApplicationId(value: Uint64Like): void {
    this.#core.parentApplicationId = idToString(value);
  }
  /** The party the invite is for. */
  PartyId(): string {
    return this.#core.partyId;
  }
  /** Sets the party. */
  SetPartyId(value: string): void {
    this.#core.partyId = value;
  }
  /** The sender's session. */
  SessionId(): string {
    return this.#core.sessionId;
  }
  /** Sets the sender's session. */
  SetSessionId(value: string): void {
    this.#core.sessionId = value;
  }
  /** Whether the party can still be joined through it. */
  IsValid(): boolean {
    return this.#core.isValid;
  }
  /** Sets whether it is valid. */
  SetIsValid(value: boolean): void {
    this.#core.isValid = value;
  }
}
