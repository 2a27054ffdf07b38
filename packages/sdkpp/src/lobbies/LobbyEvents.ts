/** Events of the player's lobbies and their members, each with its argument tuple (part of the client's events). */
export interface LobbyEvents {
  /**
   * A lobby became available to the player: created, joined, added by the game backend, or recovered after a
   * reconnect. It may fire more than once for one lobby.
   */
  lobbyCreated: [lobbyId: string];
  /** A lobby's metadata or linked channel changed. */
  lobbyUpdated: [lobbyId: string];
  /** A lobby is no longer available: the player left or was removed, or it was deleted or expired. */
  lobbyDeleted: [lobbyId: string];
  /** A user joined a lobby the player is in. */
  lobbyMemberAdded: [lobbyId: string, memberId: string];
  /** A member's metadata, flags, additional name or connection changed. */
  lobbyMemberUpdated: [lobbyId: string, memberId: string];
  /** A member left or was removed from a lobby the player is in. */
  lobbyMemberRemoved: [lobbyId: string, memberId: string];
}
