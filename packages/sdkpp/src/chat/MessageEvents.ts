/** Events of direct and lobby messages, each with its argument tuple (part of the client's events). */
export interface MessageEvents {
  /** A message arrived or was sent: a direct message (activity invites included) or a lobby message. */
  messageCreated: [messageId: string];
  /** A message was edited, or the game backend changed its moderation metadata. */
  messageUpdated: [messageId: string];
  /** A message was deleted; `channelId` is the other user's id for a direct message, the lobby id in a lobby. */
  messageDeleted: [messageId: string, channelId: string];
}
