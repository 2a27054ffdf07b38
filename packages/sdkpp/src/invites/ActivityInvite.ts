import { enumMember } from '../util/enumMember.js';

/** What an invite asks, with the C++ SDK's `ActivityActionTypes` values. */
export enum ActivityActionTypes {
  /** Not an invite the SDK understands (an unknown type); such an invite is never valid. */
  Invalid = 0,
  /** "Join my party": the sender invites the recipient. */
  Join = 1,
  /** "Let me join": the sender asks to join the recipient's party. */
  JoinRequest = 5,
}

/** An activity invite or join request received in a direct message. */
export interface ActivityInvite {
  /** Who sent it. */
  senderId: string;
  /** The direct-message channel it arrived in. */
  channelId: string;
  /** The message that carries it (see `getMessageHandle`). */
  messageId: string;
  /** Whether the sender invites the recipient (Join) or asks to join them (JoinRequest). */
  type: ActivityActionTypes;
  /** The application the invite is for; a sibling application's id when it came from one. */
  applicationId: string;
  /** The parent application of a publisher's suite, or `''`. */
  parentApplicationId: string;
  /** The party the invite is for. */
  partyId: string;
  /** The sender's session the invite was sent from. */
  sessionId: string;
  /** Whether the party can still be joined through this invite. */
  isValid: boolean;
}

type Wire = Record<string, unknown>;

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * The invite a MESSAGE_CREATE/UPDATE carries, or undefined for a plain message. Ids come from the message
 * (`id`, `channel_id`, `author.id`, `application_id`) and the party from its `activity`.
 */
export function inviteFromMessage(message: Wire): ActivityInvite | undefined {
  const activity = message.activity;
  if (typeof activity !== 'object' || activity === null) return undefined;
  const a = activity as Wire;
  const type = enumMember(ActivityActionTypes, a.type) ?? ActivityActionTypes.Invalid;
  const author = message.author as Wire | undefined;
  const application = message.application as Wire | undefined;
  return {
    senderId: str(author?.id),
    channelId: str(message.channel_id),
    messageId: str(message.id),
    type,
    applicationId: str(message.application_id) || str(application?.id),
    parentApplicationId: str(a.parent_application_id),
    partyId: str(a.party_id),
    sessionId: str(a.session_id),
    isValid: type !== ActivityActionTypes.Invalid && a.is_valid !== false,
  };
}
