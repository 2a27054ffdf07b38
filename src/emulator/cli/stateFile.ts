import { open, readFile, rename, rm } from 'node:fs/promises';

import { importStoreState, type EmulatorSavedState } from '../store/persist.js';

/** A state file that cannot be read or used; the message names the file. */
export class StateFileError extends Error {
  override name = 'StateFileError';
}

/**
 * The state saved in `path`, or undefined when there is no such file yet (the first run with `--state`).
 *
 * @throws StateFileError when the file cannot be read, is not JSON, or is not a state this version loads.
 */
export async function loadStateFile(path: string): Promise<EmulatorSavedState | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StateFileError(`cannot read the state file ${path}: ${(error as Error).message}`);
  }
  let saved: unknown;
  try {
    saved = JSON.parse(text);
  } catch {
    throw new StateFileError(
      `the state file ${path} is not valid JSON (damaged?); move it away to start from a new world`,
    );
  }
  try {
    importStoreState(saved, Date.now()); // checked here so the message can name the file
  } catch (error) {
    throw new StateFileError(`the state file ${path} cannot be loaded: ${(error as Error).message}`);
  }
  return saved as EmulatorSavedState;
}

/**
 * Writes `state` to `path` atomically: a temporary file next to it, flushed, then renamed over it, so a crash
 * or a full disk leaves the previous state whole. Only the owner may read it (it holds tokens).
 */
export async function saveStateFile(path: string, state: EmulatorSavedState): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    const file = await open(temporary, 'w', 0o600);
    try {
      await file.writeFile(`${JSON.stringify(state)}\n`);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
