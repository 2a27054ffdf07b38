import { open, readFile, rename, rm } from 'node:fs/promises';

import { describeOmitted, importStoreState, StateExportError, type OmittedRecord } from '../store/persist.js';
import type { EmulatorSavedState } from '../types.js';

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
 * The JSON text of `state` in pieces, a record at a time: the same text as `JSON.stringify`, without ever
 * holding a large world in one string (which has a length limit, and would double the memory a save takes).
 */
function* stateJson(state: EmulatorSavedState): Generator<string> {
  const { data, ...head } = state;
  yield `${JSON.stringify(head).slice(0, -1)},"data":{`;
  let firstPart = true;
  for (const [part, value] of Object.entries(data)) {
    if (value === undefined) continue;
    yield `${firstPart ? '' : ','}${JSON.stringify(part)}:`;
    firstPart = false;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      yield JSON.stringify(value);
      continue;
    }
    yield '{';
    let firstRecord = true;
    for (const [id, record] of Object.entries(value as Record<string, unknown>)) {
      const json = JSON.stringify(record);
      if (json === undefined) continue;
      yield `${firstRecord ? '' : ','}${JSON.stringify(id)}:${json}`;
      firstRecord = false;
    }
    yield '}';
  }
  yield '}}\n';
}

/** How much of the text a save gathers before each write. */
const WRITE_CHUNK = 1 << 20;

/**
 * Writes `state` to `path` atomically: a temporary file next to it, flushed, then renamed over it, so a crash
 * or a full disk leaves the previous state whole. Only the owner may read it (it holds tokens).
 */
export async function saveStateFile(path: string, state: EmulatorSavedState): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    const file = await open(temporary, 'w', 0o600);
    try {
      let pending: string[] = [];
      let size = 0;
      for (const piece of stateJson(state)) {
        pending.push(piece);
        size += piece.length;
        if (size >= WRITE_CHUNK) {
          await file.write(pending.join(''));
          pending = [];
          size = 0;
        }
      }
      await file.write(pending.join(''));
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

/** Where a partial save of `path` made at `now` goes: beside it, named by the time, never over it. */
export function partialStatePath(path: string, now: number): string {
  return `${path}.partial-${new Date(now).toISOString().replace(/[:.]/g, '-')}.json`;
}

/** What {@link saveEmulatorState} did. */
export type StateSaveResult =
  | { kind: 'saved'; path: string }
  | {
      kind: 'partial';
      /** The state file, which still holds the state saved before. */
      path: string;
      /** Where everything but the omitted records went. */
      partialPath: string;
      omitted: readonly OmittedRecord[];
    };

/**
 * The save of `--state`: the exported state to `path`, or, when some records cannot be saved, everything
 * else to a new file beside it ({@link partialStatePath}). A partial state never replaces a whole one: the
 * previous state stays where it was, and the user chooses.
 *
 * @throws what exporting or writing throws otherwise.
 */
export async function saveEmulatorState(
  path: string,
  exportState: () => EmulatorSavedState,
  now: number = Date.now(),
): Promise<StateSaveResult> {
  let state: EmulatorSavedState;
  try {
    state = exportState();
  } catch (error) {
    if (!(error instanceof StateExportError)) throw error;
    const partialPath = partialStatePath(path, now);
    await saveStateFile(partialPath, error.partial);
    return { kind: 'partial', path, partialPath, omitted: error.omitted };
  }
  await saveStateFile(path, state);
  return { kind: 'saved', path };
}

/** What the command says about a partial save: what was left out, and where each state now is. */
export function describePartialSave(result: Extract<StateSaveResult, { kind: 'partial' }>): string {
  const count = result.omitted.length;
  return (
    `could not save ${count} record${count === 1 ? '' : 's'} of the state: ${describeOmitted(result.omitted)}. ` +
    `The rest was saved to ${result.partialPath}; ${result.path} still holds the state saved before ` +
    `(start from the rest with --state ${result.partialPath}).`
  );
}
