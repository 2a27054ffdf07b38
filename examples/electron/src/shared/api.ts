/**
 * The contract between the three processes: what the renderer may ask of the main process, what it gets
 * back, and what the main process pushes to it. Plain data only (it crosses IPC and the context bridge by
 * structured clone), and no import of Node, Electron or sdkpp, so every side can compile it.
 */

/** The one channel the preload invokes: `(method, ...args)`; the answer is a {@link BridgeResult}. */
export const INVOKE_CHANNEL = 'sdkpp:invoke';
/** The channel the main process pushes {@link BridgeEvent}s on. */
export const EVENT_CHANNEL = 'sdkpp:event';

/** Most characters a direct or lobby message may have (the platform's limit). */
export const MAX_MESSAGE_LENGTH = 2000;
/** Most characters of a lobby secret (the platform's limit). */
export const MAX_LOBBY_SECRET_LENGTH = 250;
/** The microphone rates the main process takes from the renderer (an audio context's possible rates). */
export const MIN_MICROPHONE_RATE = 8000;
export const MAX_MICROPHONE_RATE = 192_000;

/** The signed-in player, or another user, as the UI shows them. */
export interface UserView {
  id: string;
  username: string;
  displayName: string;
}

/** Which media engine the SDK picked; in Electron the native addon may not load and the JS engine runs. */
export interface EngineView {
  engine: 'native' | 'js';
  version: string;
  crypto: string;
  codec: string | null;
  /** Why the JS engine runs although the native one was wanted; null when there was no fallback. */
  fallbackReason: string | null;
}

/** A microphone or speaker the main process can open: `default`, one of the system's, or `null` (none). */
export interface AudioDeviceView {
  id: string;
  name: string;
  isDefault: boolean;
}

/** The main process's devices, and the ones the voice call uses. */
export interface AudioDevicesView {
  inputs: AudioDeviceView[];
  outputs: AudioDeviceView[];
  /** The current microphone's id (`null` while the page streams its own). */
  input: string;
  output: string;
}

/** Connection status (`ClientStatus` by name), the player, and the engine. */
export interface SessionView {
  status: string;
  user: UserView | null;
  engine: EngineView;
}

/** How a user in the friends panel relates to the player. */
export type FriendRelation = 'friend' | 'incoming' | 'outgoing';

/** Presence as the friends panel shows it. */
export type Presence = 'online' | 'idle' | 'dnd' | 'streaming' | 'offline' | 'unknown';

/** One row of the friends panel. */
export interface FriendView extends UserView {
  relation: FriendRelation;
  presence: Presence;
  /** What they are playing, e.g. `sdkpp Demo Game: Ranked match`; null when nothing. */
  activity: string | null;
}

/** Where a message belongs: a direct conversation (keyed by the other user) or a lobby. */
export type Conversation = { kind: 'dm'; userId: string } | { kind: 'lobby'; lobbyId: string };

/** A direct or lobby message. */
export interface MessageView {
  id: string;
  authorId: string;
  authorName: string;
  content: string;
  /** Milliseconds since the epoch. */
  sentAt: number;
  conversation: Conversation;
}

/** A lobby the player is in. */
export interface LobbyView {
  id: string;
  members: (UserView & { connected: boolean })[];
}

/**
 * Every method the renderer may call, as `(args) => result`. The main process checks each argument itself:
 * the renderer is untrusted, and these types mean nothing to a compromised one.
 */
export interface BridgeMethods {
  /** Links the account (OAuth2 + PKCE in the browser) and connects; tokens stay in the main process. */
  signIn: () => SessionView;
  /** Disconnects. */
  signOut: () => SessionView;
  getSession: () => SessionView;
  getFriends: () => FriendView[];
  sendFriendRequest: (username: string) => null;
  acceptFriendRequest: (userId: string) => null;
  /** The conversation with a user, oldest first (at most the last 50). */
  getDirectMessages: (userId: string) => MessageView[];
  sendMessage: (userId: string, content: string) => MessageView;
  /** Creates the lobby for this secret, or joins it. */
  joinLobby: (secret: string) => LobbyView;
  leaveLobby: (lobbyId: string) => null;
  /** Lobby chat, oldest first (at most the last 50). */
  getLobbyMessages: (lobbyId: string) => MessageView[];
  sendLobbyMessage: (lobbyId: string, content: string) => MessageView;
  /** Joins the lobby's voice call; the renderer then streams its microphone with `pushMicrophone`. */
  joinVoice: (lobbyId: string) => null;
  /** Leaves the lobby's voice call. */
  leaveVoice: (lobbyId: string) => null;
  /**
   * The renderer's microphone (`getUserMedia`, already echo-cancelled and denoised by the browser): mono
   * samples in −1..1 at the audio context's rate, at most one second per call, sent as they are captured.
   */
  pushMicrophone: (samples: Float32Array, sampleRate: number) => null;
  /**
   * The system's microphones and speakers, which the main process opens itself (the other way to wire voice:
   * the audio never crosses IPC, and the SDK's echo cancellation, noise suppression and gain control run on
   * its worker thread). Empty but for `null` where the native engine or a sound server is missing.
   */
  getAudioDevices: () => AudioDevicesView;
  /** Chooses the call's microphone and speakers, each an id from {@link BridgeMethods.getAudioDevices}. */
  setAudioDevices: (inputId: string, outputId: string) => AudioDevicesView;
}

/** A method's name. */
export type MethodName = keyof BridgeMethods;

/** Every method name, for the preload (which builds the API from it) and the main process (its handlers). */
export const METHOD_NAMES = [
  'signIn',
  'signOut',
  'getSession',
  'getFriends',
  'sendFriendRequest',
  'acceptFriendRequest',
  'getDirectMessages',
  'sendMessage',
  'joinLobby',
  'leaveLobby',
  'getLobbyMessages',
  'sendLobbyMessage',
  'joinVoice',
  'leaveVoice',
  'pushMicrophone',
  'getAudioDevices',
  'setAudioDevices',
] as const satisfies readonly MethodName[];

/**
 * Why a call failed. `invalid-argument`, `unknown-method` and `untrusted-sender` are the main process
 * refusing the renderer; `not-signed-in` and `busy` are the session's state; `sdk` is the SDK's own error
 * (the platform refused, the network failed); `internal` is a bug in the main process.
 */
export type BridgeErrorCode =
  'invalid-argument' | 'unknown-method' | 'untrusted-sender' | 'not-signed-in' | 'busy' | 'sdk' | 'internal';

/** A failure as the renderer sees it. `sdkError` is the SDK's error name (e.g. `HTTPError[50007]`). */
export interface BridgeError {
  code: BridgeErrorCode;
  message: string;
  sdkError?: string;
}

/**
 * Every answer is a value: errors thrown across IPC and the context bridge lose every field but the message,
 * so the code travels as data.
 */
export type BridgeResult<T> = { ok: true; value: T } | { ok: false; error: BridgeError };

/** What the main process pushes to the renderer as things happen. */
export type BridgeEvent =
  | { type: 'session'; session: SessionView }
  | { type: 'friends'; friends: FriendView[] }
  | { type: 'message'; message: MessageView }
  | { type: 'lobby'; lobby: LobbyView }
  | { type: 'lobbyClosed'; lobbyId: string }
  /** A device was plugged in or removed, a default changed, or the call's device fell back to the default. */
  | { type: 'audioDevices'; devices: AudioDevicesView };

/** The API the preload exposes to the renderer as `window.sdkpp`. */
export type SdkppApi = {
  [K in MethodName]: (
    ...args: Parameters<BridgeMethods[K]>
  ) => Promise<BridgeResult<ReturnType<BridgeMethods[K]>>>;
} & {
  /** Calls `listener` with every event; returns the function that stops it. */
  onEvent(listener: (event: BridgeEvent) => void): () => void;
};
