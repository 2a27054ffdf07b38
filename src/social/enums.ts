/** How the signed-in user relates to another, with the C++ SDK's `RelationshipType` values. */
export enum RelationshipType {
  None = 0,
  Friend = 1,
  Blocked = 2,
  PendingIncoming = 3,
  PendingOutgoing = 4,
  Implicit = 5,
  Suggestion = 6,
}

/** The groups of the friends list, with the C++ SDK's `RelationshipGroupType` values. */
export enum RelationshipGroupType {
  /** Online and playing this game. */
  OnlinePlayingGame = 0,
  /** Online, not playing this game. */
  OnlineElsewhere = 1,
  Offline = 2,
}

/** A user's online status, with the C++ SDK's `StatusType` values. */
export enum StatusType {
  Online = 0,
  Offline = 1,
  Blocked = 2,
  Idle = 3,
  Dnd = 4,
  Invisible = 5,
  Streaming = 6,
  Unknown = 7,
}

const STATUS_BY_WIRE: Readonly<Record<string, StatusType>> = {
  online: StatusType.Online,
  offline: StatusType.Offline,
  idle: StatusType.Idle,
  dnd: StatusType.Dnd,
  invisible: StatusType.Invisible,
  streaming: StatusType.Streaming,
};

/** The status named by the gateway (`"online"`, `"dnd"`, …); Unknown for anything else. */
export function statusFromWire(status: unknown): StatusType {
  return typeof status === 'string' ? (STATUS_BY_WIRE[status] ?? StatusType.Unknown) : StatusType.Unknown;
}

/** The gateway's name for a status a user may set. */
export function statusToWire(status: StatusType): 'online' | 'idle' | 'dnd' | 'invisible' | undefined {
  switch (status) {
    case StatusType.Online:
      return 'online';
    case StatusType.Idle:
      return 'idle';
    case StatusType.Dnd:
      return 'dnd';
    case StatusType.Invisible:
      return 'invisible';
    default:
      return undefined;
  }
}
