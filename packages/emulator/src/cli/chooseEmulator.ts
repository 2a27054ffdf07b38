import {
  RegistryError,
  sameEmulator,
  scanRegistry,
  type Registration,
  type RegistryScan,
} from './emulatorRegistry.js';

/** The emulator `sdkpp emulator call` talks to, or why there is none; with the files it did not trust. */
export type EmulatorChoice = ({ registration: Registration } | { problem: string }) & {
  /** Registry files ignored as untrusted, and why (the command warns about each). */
  ignored: RegistryScan['ignored'];
};

/** One line per emulator, for the messages that list them. */
function listed(registrations: readonly Registration[]): string {
  return registrations
    .map((r) => `  ${r.http}  (pid ${r.pid}, application ${r.applicationId}, started ${r.startedAt})`)
    .join('\n');
}

/** A note on the registrations found stale (and removed) during the scan, for "none" messages. */
function staleNote(scan: RegistryScan): string {
  if (scan.stale.length === 0) return '';
  const which = scan.stale.map((r) => `${r.http}, pid ${r.pid}`).join('; ');
  return `; removed the registration of ${scan.stale.length === 1 ? 'one' : String(scan.stale.length)} that stopped without closing (${which})`;
}

/**
 * Picks the emulator: the one at `wanted` (`--emulator`), else at `$SDKPP_EMULATOR`, else the only one
 * running. A registration whose process is gone never counts (the scan removes it).
 */
export async function chooseEmulator(
  wanted: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<EmulatorChoice> {
  let scan: RegistryScan;
  try {
    scan = await scanRegistry(env);
  } catch (error) {
    if (!(error instanceof RegistryError)) throw error;
    return { problem: `the list of running emulators cannot be read: ${error.message}`, ignored: [] };
  }
  const { ignored, live } = scan;
  const fromEnv = env.SDKPP_EMULATOR === '' ? undefined : env.SDKPP_EMULATOR;
  const address = wanted ?? fromEnv;
  if (address !== undefined) {
    const source = wanted === undefined ? ' (from SDKPP_EMULATOR)' : '';
    let valid = false;
    try {
      valid = new URL(address).protocol === 'http:';
    } catch {
      valid = false;
    }
    if (!valid) return { problem: `"${address}"${source} is not an http:// URL`, ignored };
    const match = live.find((r) => sameEmulator(r.http, address));
    if (match) return { registration: match, ignored };
    const others = live.length === 0 ? '' : `\nRunning emulators:\n${listed(live)}`;
    return {
      problem: `no emulator started by "sdkpp emulator" is running at ${address}${source}${staleNote(scan)}${others}`,
      ignored,
    };
  }
  const [only, ...more] = live;
  if (only !== undefined && more.length === 0) return { registration: only, ignored };
  if (only === undefined) {
    return {
      problem: `no emulator is running (start one with "sdkpp emulator"; emulators register in ${scan.dir})${staleNote(scan)}`,
      ignored,
    };
  }
  return {
    problem: `${live.length} emulators are running; choose one with --emulator URL:\n${listed(live)}`,
    ignored,
  };
}
