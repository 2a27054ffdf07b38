/**
 * The one-command tour of sdkpp: starts the embedded platform emulator and plays a sample game session
 * against it. Run with `npm run demo`; add `--keep-alive` to leave the emulator up afterwards.
 */
import { startEmulator } from 'sdkpp/emulator';

import { linkAndConnect } from './linkAndConnect.js';
import { say } from './print.js';
import { befriend, hostParty, inviteAndJoin, type Player } from './social.js';

const keepAlive = process.argv.includes('--keep-alive');

const emulator = await startEmulator({ users: 2, autoConsent: true });
say('emulator', `platform emulator up at ${emulator.http} (gateway ${emulator.gateway})`);
say(
  'emulator',
  `test users: ${emulator.users.map((u) => u.username).join(', ')}; application ${emulator.applicationId}`,
);

const players = emulator.users.slice(0, 2);
const clients = await Promise.all(players.map((player) => linkAndConnect(emulator, player)));
const first = clients[0];
if (first) {
  const engine = first.getMediaEngineInfo();
  const selfTest = first.runMediaSelfTest();
  say('media', `${engine.engine} engine ${engine.version}; crypto ${engine.crypto.version}`);
  say('media', `crypto self-test (${engine.features.join(', ')}): ${selfTest.ok ? 'passed' : 'FAILED'}`);
}
say('demo', `${clients.length} players linked their accounts and are connected`);

const [alice, bob] = clients.map((client, i): Player => ({ name: players[i]?.username ?? '?', client }));
if (alice && bob) {
  await befriend(alice, bob);
  await hostParty(alice, bob);
  await inviteAndJoin(alice, bob);
}

if (keepAlive) {
  say('demo', 'emulator stays up (--keep-alive); press Ctrl+C to stop');
  const stop = (): void => {
    void Promise.all(clients.map((c) => c.disconnect()))
      .then(() => emulator.close())
      .then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} else {
  await Promise.all(clients.map((c) => c.disconnect()));
  await emulator.close();
  say('demo', 'done');
}
