/** Kinds of activity, with the C++ SDK's `ActivityTypes` values. */
export enum ActivityTypes {
  Playing = 0,
  Streaming = 1,
  Listening = 2,
  Watching = 3,
  CustomStatus = 4,
  Competing = 5,
  HangStatus = 6,
}

/** Which field the user's status line shows, with the C++ SDK's `StatusDisplayTypes` values. */
export enum StatusDisplayTypes {
  Name = 0,
  State = 1,
  Details = 2,
}

/** Whether a party can be joined without a request, with the C++ SDK's `ActivityPartyPrivacy` values. */
export enum ActivityPartyPrivacy {
  Private = 0,
  Public = 1,
}

/** Images and their hover texts and links. Images are asset keys or URLs. */
export interface ActivityAssets {
  largeImage?: string;
  largeText?: string;
  /** Opened when the large image is clicked. */
  largeUrl?: string;
  smallImage?: string;
  smallText?: string;
  /** Opened when the small image is clicked. */
  smallUrl?: string;
  /** The banner of invites sent from this activity (asset key or URL). */
  inviteCoverImage?: string;
}

/** The player's party. */
export interface ActivityParty {
  /** 2–128 characters; the same for every member. */
  id: string;
  currentSize: number;
  maxSize: number;
  privacy?: ActivityPartyPrivacy;
}

/** Times shown as elapsed or remaining. Unix time in ms; values that look like seconds are converted. */
export interface ActivityTimestamps {
  start?: number;
  end?: number;
}

/** A link button on the profile (at most two). */
export interface ActivityButton {
  /** 1–32 characters. */
  label: string;
  /** An http(s) URL of at most 512 characters. */
  url: string;
}

/** A rich presence activity, with every field of the C++ SDK's `Activity`. */
export interface Activity {
  /** Only Playing, Listening, Watching and Competing can be set by a game. */
  type: ActivityTypes;
  /** The displayed application name; the application's own name when unset. */
  name?: string;
  /** Line 3: the party state, e.g. "In a group". */
  state?: string;
  stateUrl?: string;
  /** Line 2: what the player does, e.g. "Ranked match". */
  details?: string;
  detailsUrl?: string;
  assets?: ActivityAssets;
  party?: ActivityParty;
  /** The join secret handed to players who accept an invite. */
  secrets?: { join?: string };
  timestamps?: ActivityTimestamps;
  buttons?: ActivityButton[];
  /** Which field the status line shows. */
  statusDisplayType?: StatusDisplayTypes;
}

/** Activity types a game may set (the platform refuses the others). */
export const SETTABLE_ACTIVITY_TYPES: ReadonlySet<ActivityTypes> = new Set([
  ActivityTypes.Playing,
  ActivityTypes.Listening,
  ActivityTypes.Watching,
  ActivityTypes.Competing,
]);
