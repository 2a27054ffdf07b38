import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { describe, expect, it } from 'vitest';

import { frameOf, HostSocket, voiceChannel } from './activityHostHelpers.js';
import { closeAfterEach, loggedEmulator } from './lobbyHelpers.js';

const { running } = closeAfterEach();

/** A forced full collection, so heap numbers count what is still referenced. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

describe('the Activity console under a flood of long lines', () => {
  it('keeps only the cut console line of a CAPTURE_LOG, never the message it came in', async () => {
    const gc = collector();
    const { emu } = await loggedEmulator(running, { users: 2 });
    const host = await HostSocket.open(
      emu,
      emu.launchActivity({ user: 'alice', channel: voiceChannel(emu) }).url,
    );
    await host.handshake(emu);
    gc();
    const before = process.memoryUsage().heapUsed;
    const lines = 300;
    const size = 200_000;
    for (let i = 0; i < lines; i += 1) {
      const nonce = `log-${i}`;
      // Each message is its own text, so nothing is shared between them or with the test.
      host.raw(
        `{"t":"frame","d":[1,{"cmd":"CAPTURE_LOG","nonce":"${nonce}","args":{"level":"warn","message":"${String(i % 10).repeat(size)}"}}]}`,
      );
      await host.next((m) => frameOf(m)?.nonce === nonce, `the reply to CAPTURE_LOG ${i}`);
    }
    host.messages.splice(0);
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    const [instance] = emu.activityInstances();
    expect(instance?.console).toHaveLength(200);
    expect(instance?.console.every((l) => l.message.length === 2000 && l.level === 'warn')).toBe(true);
    expect(instance?.console.at(-1)?.message).toBe('9'.repeat(2000));
    // 200 kept lines of 2000 characters are 0.4 MB; the messages they came in were 40 MB.
    expect(grown).toBeLessThan(8 * 1024 * 1024);

    const started = Date.now();
    expect((await host.command('USER_SETTINGS_GET_LOCALE')).data).toEqual({ locale: 'en-US' });
    expect((await fetch(`${emu.api}/gateway`)).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(2000);

    // The level is one of the SDK's; anything else, however long, is kept as `log`.
    await host.command('CAPTURE_LOG', { level: 'w'.repeat(100_000), message: 'odd level' });
    expect(emu.activityInstances()[0]?.console.at(-1)).toMatchObject({ level: 'log', message: 'odd level' });
  }, 60_000);
});
