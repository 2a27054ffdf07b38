/** Where a CLI command writes, and how it learns that it should stop; injectable for tests. */
export interface CommandIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Resolves with the signal's name when the process is next asked to stop (SIGINT or SIGTERM). */
  stopRequested(): Promise<string>;
}
