/** What an emulator running in another terminal says about itself. */
export interface EmulatorInfo {
  /** Its HTTP API base. */
  api: string;
  /** The application id it runs with. */
  applicationId: string;
}

/**
 * Asks an emulator in another terminal for its API address and application id (`GET /emulator.json`, which holds
 * nothing secret); undefined when nothing answers there like an emulator.
 */
export async function emulatorInfo(http: string): Promise<EmulatorInfo | undefined> {
  try {
    const reply = await fetch(new URL('/emulator.json', http), { signal: AbortSignal.timeout(5000) });
    if (!reply.ok) return undefined;
    const info = (await reply.json()) as { api?: unknown; applicationId?: unknown };
    const { api, applicationId } = info;
    if (typeof api !== 'string' || typeof applicationId !== 'string' || !/^[0-9]{1,20}$/.test(applicationId))
      return undefined;
    return { api, applicationId };
  } catch {
    return undefined;
  }
}
