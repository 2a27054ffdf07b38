import type { ActivityInstance } from '../activities/ActivityInstances.js';
import type { EmulatorContext } from '../context.js';
import type { AuthorizeRequest } from '../localClient/commands.js';
import type { SkuRecord, UserRecord } from '../store/types.js';

/** An image the player picked in the host page's file picker. */
export interface PickedImage {
  bytes: Buffer;
  contentType: string;
  filename: string;
}

/** What the player chose in the client's share modal; null when they closed it. */
export type ShareChoice = 'copy' | 'send' | null;

/** The share modal's question: the game's message, the link, and the channel a "send" goes to (if any). */
export interface SharePrompt {
  message: string;
  url: string;
  channel: { id: string; name: string } | null;
}

/** A console line the game's frame sent with CAPTURE_LOG. */
export interface ConsoleLine {
  userId: string;
  level: string;
  message: string;
}

/** What an Embedded App SDK command may touch: the emulator, the player, the instance and its own frame. */
export interface EmbeddedScope {
  ctx: EmulatorContext;
  user: UserRecord;
  instance: ActivityInstance;
  /** The presence source of this frame. */
  source: string;
  subscriptions: Set<string>;
  /** The arguments each subscription was made with (a voice event's `channel_id`, a member event's `guild_id`). */
  subscriptionArgs: Map<string, Record<string, string>>;
  /** The scopes of the token AUTHENTICATE accepted; null before it. */
  authenticated: string[] | null;
  /** Asks the player (the host page's OAuth2 modal) to approve `request`; resolves with the answer. */
  consent(request: AuthorizeRequest): Promise<boolean>;
  /** Asks the player (the host page's purchase modal) to buy `sku`; resolves with the answer. */
  confirmPurchase(sku: SkuRecord): Promise<boolean>;
  /** Asks the player (the host page's share modal) to copy or send an Activity link; null when they close it. */
  share(prompt: SharePrompt): Promise<ShareChoice>;
  /** Shows a dialog of the client in the host page (the invite dialog, the share moment dialog). */
  showDialog(dialog: { kind: 'invite' | 'moment'; url: string }): void;
  /** Asks the player to pick an image in the host page's file picker; null when they close it. */
  pickImage(): Promise<PickedImage | null>;
  /** Keeps one console line of the game (CAPTURE_LOG), never written to the emulator's log. */
  captureLog(line: ConsoleLine): void;
  /** Asks the host page to open a link in a new tab. */
  openLink(url: string): void;
}
