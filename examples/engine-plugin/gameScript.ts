import type { Emulator } from '@sdkpp/emulator';

import type { EngineContext, EnginePlugin } from './engine.js';
import { say } from './print.js';
import type { SocialPlugin } from './socialPlugin.js';

/** Options of {@link GameScript}. */
export interface GameScriptOptions {
  /** The social plugin whose progress the script follows. */
  social: SocialPlugin;
  /** How many frames the game keeps running once the rich presence is set. */
  framesAfterPresence: number;
  /** The embedded emulator, whose view of the player's presence the script reports; none for an external one. */
  emulator?: Emulator;
  /** The longest the whole session may take, in simulated seconds. */
  timeoutSeconds: number;
}

/**
 * The game's own plugin: it plays on while the social plugin works, and ends the session once the player
 * is signed in with their presence showing (or when something failed or took too long).
 */
export class GameScript implements EnginePlugin {
  readonly name = 'game';
  readonly #options: GameScriptOptions;
  #engine: EngineContext | undefined;
  #elapsed = 0;
  #framesSincePresence = 0;
  #presenceSeen = false;

  constructor(options: GameScriptOptions) {
    this.#options = options;
  }

  onLoad(engine: EngineContext): void {
    this.#engine = engine;
    say('game', `loaded; the loop runs ${Math.round(1 / engine.stepSeconds)} fixed steps per second`);
  }

  onUpdate(dt: number): void {
    const engine = this.#engine;
    if (!engine) return;
    this.#elapsed += dt;
    const { social, emulator, framesAfterPresence, timeoutSeconds } = this.#options;
    if (social.phase === 'presence-set') {
      this.#framesSincePresence += 1;
      if (emulator && !this.#presenceSeen) this.#presenceSeen = this.#reportPresence(emulator, social.userId);
      if (this.#framesSincePresence >= framesAfterPresence && (this.#presenceSeen || !emulator)) {
        say('game', `played ${this.#framesSincePresence} frames with the presence showing; quitting`);
        engine.quit(0);
      }
    }
    if (this.#elapsed > timeoutSeconds) {
      say('game', `gave up after ${timeoutSeconds} s (the social plugin got to "${social.phase}")`);
      engine.quit(1);
    }
  }

  onUnload(): void {
    say('game', 'unloaded');
  }

  /** The platform's side: what the emulator holds as the player's presence, once it shows the activity. */
  #reportPresence(emulator: Emulator, userId: bigint): boolean {
    const presence = emulator.presenceOf(userId.toString());
    const activity = presence.activities[0];
    if (!activity) return false;
    say(
      'emulator',
      `the platform shows the player ${presence.status}, playing: "${String(activity.details)}" / "${String(activity.state)}"`,
    );
    return true;
  }
}
