/**
 * The application id an emulator in another terminal runs with, as its dashboard reports it
 * (`GET /dashboard/api/state`, answered to loopback callers only); undefined when it does not answer.
 */
export async function applicationIdOf(http: string): Promise<string | undefined> {
  try {
    const reply = await fetch(new URL('/dashboard/api/state', http), { signal: AbortSignal.timeout(5000) });
    if (!reply.ok) return undefined;
    const state = (await reply.json()) as { emulator?: { applicationId?: unknown } };
    const id = state.emulator?.applicationId;
    return typeof id === 'string' && /^[0-9]{1,20}$/.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}
