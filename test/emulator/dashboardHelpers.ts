import type { Emulator } from '../../packages/emulator/src/index.js';

/** The dashboard page's action token, as the page itself reads it. */
export async function pageToken(emulator: Emulator): Promise<string> {
  const html = await (await fetch(emulator.dashboard)).text();
  const token = /<meta name="dashboard-token" content="([^"]+)">/.exec(html)?.[1];
  if (!token) throw new Error('no token in the dashboard page');
  return token;
}

/** POSTs an action the way the page does; `headers` override or add to the page's headers. */
export async function act(
  emulator: Emulator,
  path: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${emulator.dashboard}/api/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}
