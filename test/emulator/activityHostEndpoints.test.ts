import { request } from 'node:http';

import { describe, expect, it } from 'vitest';

import type { Emulator } from '../../packages/emulator/src/index.js';
import { frameOf, HostSocket, voiceChannel } from './activityHostHelpers.js';
import { closeAfterEach, loggedEmulator } from './lobbyHelpers.js';

const { running } = closeAfterEach();

/** A POST to the proxy host (as the host page or a browser's report would send it): the status. */
function post(
  emu: Emulator,
  path: string,
  body: Buffer | string,
  headers: Record<string, string>,
): Promise<number> {
  const { port, host } = new URL(emu.activityUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { host, ...headers } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    // A server that refuses mid-body may reset the socket: that is an answer too.
    req.on('error', (error) =>
      /ECONNRESET|EPIPE|socket hang up/.test(error.message) ? resolve(-1) : reject(error),
    );
    req.end(body);
  });
}

describe("the Activity host's report and upload endpoints under bad input", () => {
  it('refuses oversized or malformed violation reports, and uploads nobody asked for or that are not images', async () => {
    const { emu, logs } = await loggedEmulator(running, { users: 1 });
    const report = (body: string): Promise<number> =>
      post(emu, '/.emulator/activity/csp-report', body, { 'content-type': 'application/csp-report' });
    expect(await report('not json')).toBe(400);
    expect(await report('{"csp-report": {"blocked-uri": "inline"}}')).toBe(400);
    expect([400, -1]).toContain(await report(`{"csp-report": {"x": "${'a'.repeat(40_000)}"}}`));
    // A report of no frame (a closed one) is still logged, with its mapping, without the query.
    const frameless = JSON.stringify({
      'csp-report': {
        'document-uri': `${emu.activityUrl}/?frame_id=gone`,
        'blocked-uri': 'https://api.example.com/v1/scores?key=secret-key',
        'effective-directive': 'connect-src',
      },
    });
    expect(await report(frameless)).toBe(204);
    const line = logs.find((l) => l.includes('blocked connect-src https://api.example.com/v1/scores'));
    expect(line).toContain('add a URL mapping /api-example-com -> https://api.example.com');
    expect(line).not.toContain('secret-key');

    // An upload with no file picker open is 404; one for an open picker that is not an image is 400, and the
    // picker stays open until the page answers.
    expect(await post(emu, '/.emulator/activity/upload?id=nope', 'x', { 'content-type': 'image/png' })).toBe(
      404,
    );
    const host = await HostSocket.open(
      emu,
      emu.launchActivity({ user: 'alice', channel: voiceChannel(emu) }).url,
    );
    await host.handshake(emu);
    host.frame(1, { cmd: 'INITIATE_IMAGE_UPLOAD', args: {}, nonce: 'up' });
    const picker = await host.next((m) => m.t === 'upload', 'the file picker');
    const id = String(picker.id);
    expect(
      await post(emu, `/.emulator/activity/upload?id=${id}`, 'text', { 'content-type': 'text/html' }),
    ).toBe(400);
    expect(logs.some((l) => l.includes('upload refused (the file is not an image)'))).toBe(true);
    // Over 10 MiB: refused, and the picker still answers when the page gives up.
    const big = Buffer.alloc(10 * 1024 * 1024 + 1);
    expect([400, -1]).toContain(
      await post(emu, `/.emulator/activity/upload?id=${id}`, big, { 'content-type': 'image/png' }),
    );
    host.raw(JSON.stringify({ t: 'consent', id, approve: false }));
    const reply = await host.next((m) => frameOf(m)?.nonce === 'up', 'the reply');
    expect(frameOf(reply)).toMatchObject({ evt: 'ERROR', data: { code: 4000 } });
    host.close();
  });
});
