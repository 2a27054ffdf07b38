/** A user's online status, with the C++ SDK's `StatusType` values. */
export enum StatusType {
  /** Online and recently active. Settable. */
  Online = 0,
  /** Not connected, or no presence known for the user yet. */
  Offline = 1,
  /** Reported for a user the signed-in user has blocked, whatever their real status. */
  Blocked = 2,
  /** Online but away for a while. Settable. */
  Idle = 3,
  /** Do not disturb: online, with notifications silenced. Settable. */
  Dnd = 4,
  /** Online but shown to others as offline; only the signed-in user sees it. Settable. */
  Invisible = 5,
  /** Online and streaming. Reported only; a game cannot set it. */
  Streaming = 6,
  /** A status the gateway named that this SDK does not know. */
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
