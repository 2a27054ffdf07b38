/** Events of users and relationships, each with its argument tuple (part of the client's events). */
export interface SocialEvents {
  /** A user's data changed. */
  userUpdated: [userId: string];
  /**
   * A relationship was created or changed type (a request arrived, was accepted, a block). `isDiscord` is
   * false for this game's own friend graph.
   */
  relationshipCreated: [userId: string, isDiscordRelationshipUpdate: boolean];
  /** A relationship ended (rejected, cancelled, removed, unblocked). */
  relationshipDeleted: [userId: string, isDiscordRelationshipUpdate: boolean];
  /** A user in the friends list changed in a way that may move them between groups (status, game, type). */
  relationshipGroupsUpdated: [userId: string];
}
