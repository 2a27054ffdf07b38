/** How the signed-in user relates to another, with the C++ SDK's `RelationshipType` values. */
export enum RelationshipType {
  /** No relationship; also what a handle reports for a user the SDK has no relationship with. */
  None = 0,
  /** The two users are friends. */
  Friend = 1,
  /** The signed-in user blocked the other: messages between them fail, and their status shows as Blocked. */
  Blocked = 2,
  /** The other user sent a friend request that is not yet accepted. */
  PendingIncoming = 3,
  /** The signed-in user sent a friend request that is not yet accepted. */
  PendingOutgoing = 4,
  /** Kept for the C++ SDK's numbering; the platform does not use it for SDK relationships. */
  Implicit = 5,
  /** Kept for the C++ SDK's numbering; the platform does not use it for SDK relationships. */
  Suggestion = 6,
}

/** The groups of the friends list, with the C++ SDK's `RelationshipGroupType` values. */
export enum RelationshipGroupType {
  /** Online and playing this game. */
  OnlinePlayingGame = 0,
  /** Online, not playing this game. */
  OnlineElsewhere = 1,
  /** Offline, invisible or blocked: everyone who does not show as online. */
  Offline = 2,
}
