/** Kinds of activity, with the C++ SDK's `ActivityTypes` values. */
export enum ActivityTypes {
  /** "Playing {name}": the type games should use. Settable. */
  Playing = 0,
  /** A live stream; set by the platform, not by a game. */
  Streaming = 1,
  /** "Listening to {name}". Settable. */
  Listening = 2,
  /** "Watching {name}". Settable. */
  Watching = 3,
  /** The user's own custom status text; reported only. */
  CustomStatus = 4,
  /** "Competing in {name}". Settable. */
  Competing = 5,
  /** The user's "hang status" in a voice channel; reported only. */
  HangStatus = 6,
}

/** Which field the user's status line shows, with the C++ SDK's `StatusDisplayTypes` values. */
export enum StatusDisplayTypes {
  /** The activity's name, e.g. "Playing My Game". The default. */
  Name = 0,
  /** The `state` line instead of the name. */
  State = 1,
  /** The `details` line instead of the name. */
  Details = 2,
}

/** Whether a party can be joined without a request, with the C++ SDK's `ActivityPartyPrivacy` values. */
export enum ActivityPartyPrivacy {
  /** Joining takes a request the player accepts. The default, also for others' parties of unknown privacy. */
  Private = 0,
  /** Friends or voice-channel members may join without a request, as their account privacy settings allow. */
  Public = 1,
}

/**
 * The platforms an activity can be joined on, as bit flags with the C++ SDK's `ActivityGamePlatforms` values;
 * combine them with `|`.
 */
export enum ActivityGamePlatforms {
  Desktop = 1,
  Xbox = 2,
  Samsung = 4,
  IOS = 8,
  Android = 16,
  Embedded = 32,
  PS4 = 64,
  PS5 = 128,
}

/** Images and their hover texts and links. Images are asset keys or URLs. */
export interface ActivityAssets {
  /** The large square image, 1–256 characters. */
  largeImage?: string;
  /** The tooltip of the large image, 1–256 characters. */
  largeText?: string;
  /** Opened when the large image is clicked. */
  largeUrl?: string;
  /** The small circle drawn over the large image, 1–256 characters. */
  smallImage?: string;
  /** The tooltip of the small image, 1–256 characters. */
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
  /** Players in the party now: an integer from 0 to `maxSize`. */
  currentSize: number;
  /** Party capacity: an integer of at least 1. Shown as "(current of max)". */
  maxSize: number;
  /** Whether others can join without a request; Private when unset. */
  privacy?: ActivityPartyPrivacy;
}

/** Times shown as elapsed or remaining. Unix time in ms; values that look like seconds are converted. */
export interface ActivityTimestamps {
  /** When the activity started; shown as an elapsed-time counter. */
  start?: number;
  /** When the activity ends; shown as a countdown of the time remaining. */
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
  /** Opened when the state line is clicked; http(s), at most 256 characters. */
  stateUrl?: string;
  /** Line 2: what the player does, e.g. "Ranked match". */
  details?: string;
  /** Opened when the details line is clicked; http(s), at most 256 characters. */
  detailsUrl?: string;
  /** The images shown with the activity. */
  assets?: ActivityAssets;
  /** The player's party; with `secrets.join` it makes the activity joinable. */
  party?: ActivityParty;
  /** Set by the game for its own activity; never present on other users' activities. */
  secrets?: {
    /** The join secret handed to players who accept an invite. */
    join?: string;
  };
  /** Elapsed or remaining time shown under the activity. */
  timestamps?: ActivityTimestamps;
  /** At most two link buttons; other users' activities carry the labels only (`url` is `''`). */
  buttons?: ActivityButton[];
  /** Which field the status line shows. */
  statusDisplayType?: StatusDisplayTypes;
  /**
   * The application the activity belongs to. Others' activities carry theirs; the SDK fills in its own when it
   * sends one, and refuses a different id (the platform attributes an activity to the token's application).
   */
  applicationId?: string;
  /**
   * The publisher (parent) application of a publisher's suite of games, on activities of such a game. The
   * platform names it; a value set here is not sent.
   */
  parentApplicationId?: string;
  /**
   * Where a joinable activity can be joined ({@link ActivityGamePlatforms} flags). Unset: wherever the game
   * runs. A player on a platform not listed cannot accept its invites (SDK games and the desktop client are
   * Desktop).
   */
  supportedPlatforms?: number;
}

/** Activity types a game may set (the platform refuses the others). */
export const SETTABLE_ACTIVITY_TYPES: ReadonlySet<ActivityTypes> = new Set([
  ActivityTypes.Playing,
  ActivityTypes.Listening,
  ActivityTypes.Watching,
  ActivityTypes.Competing,
]);
