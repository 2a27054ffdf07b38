import { ActivityActionTypes, type ActivityInvite } from './ActivityInvite.js';

type Wire = Record<string, unknown>;

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * The invite a desktop-client event carries: ACTIVITY_INVITE `{type, user, activity, channel_id, message_id}`
 * (an invite shown there) or ACTIVITY_JOIN_REQUEST `{user}` (someone asks to join). The invite's own
 * application id wins over ours, so a sibling application's invite keeps its id.
 */
export function inviteFromLocalClient(
  evt: string,
  data: unknown,
  ownApplicationId: string,
): ActivityInvite | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const d = data as Wire;
  const user = d.user as Wire | undefined;
  const senderId = str(user?.id);
  if (senderId === '') return undefined;
  const activity = (d.activity ?? {}) as Wire;
  const party = (activity.party ?? {}) as Wire;
  return {
    senderId,
    channelId: str(d.channel_id),
    messageId: str(d.message_id),
    type: evt === 'ACTIVITY_JOIN_REQUEST' ? ActivityActionTypes.JoinRequest : ActivityActionTypes.Join,
    applicationId: str(activity.application_id) || ownApplicationId,
    parentApplicationId: '',
    partyId: str(party.id),
    sessionId: str(activity.session_id),
    isValid: true,
  };
}
