import type { LogWriter } from '../logging/index.js';

/**
 * The one account merge a provisional player's operation waits for (`joinLinkedLobbyGuild`,
 * `openMessageInDiscord`): the operation asks the game to merge, and `completed` (the client's
 * `provisionalUserMergeCompleted`) lets it go on or fail. A second wait supersedes the first, which ends as
 * not merged.
 */
export class ProvisionalMergeWait {
  readonly #log: LogWriter;
  #pending: ((success: boolean) => void) | undefined;

  constructor(log: LogWriter) {
    this.#log = log;
  }

  /** Calls `onMerge` and resolves with the game's answer (false when `onMerge` throws, logged). */
  wait(onMerge: () => void): Promise<boolean> {
    this.#pending?.(false);
    const merged = new Promise<boolean>((resolve) => {
      this.#pending = resolve;
    });
    try {
      onMerge();
    } catch (error) {
      this.#log.error(
        `onProvisionalUserMergeRequired threw: ${error instanceof Error ? error.message : String(error)}`,
      );
      this.#pending?.(false);
      this.#pending = undefined;
    }
    return merged;
  }

  /** The game finished (or gave up) the merge. */
  completed(success: boolean): void {
    const resolve = this.#pending;
    this.#pending = undefined;
    if (resolve) resolve(success);
    else this.#log.verbose('provisionalUserMergeCompleted with no operation waiting; ignored');
  }
}
