/**
 * The one-command tour of sdkpp: starts the embedded platform emulator and plays a sample game session
 * against it. Run with `npm run demo`; add `--keep-alive` to leave the emulator up afterwards, and
 * `--voice-loss <percent>` to have the emulator's voice server drop that share of the call's packets.
 */
import { randomBytes } from 'node:crypto';

import { GameBackend } from 'sdkpp/backend';
import { startEmulator } from '@sdkpp/emulator';

import { ActivityTypes } from 'sdkpp';

import { readDemoOptions } from './options.js';
import { linkAndConnect, startGame } from './linkAndConnect.js';
import { say } from './print.js';
import { joinLobby, lobbyChat, openLobby } from './lobby.js';
import { befriend, chat, hostParty, inviteAndJoin, type Player } from './social.js';
import { lobbyVoiceCall } from './voice.js';

const demo = readDemoOptions(process.argv.slice(2));
if (demo === null) process.exit(0);
if (typeof demo === 'number') process.exit(demo);
const { keepAlive, voiceLoss, output } = demo;

// Bob also runs the platform's desktop client (emulated here), signed in as him.
const emulator = await startEmulator({
  users: 2,
  autoConsent: true,
  rpc: { user: 'bob' },
  ...(voiceLoss > 0 ? { voice: { impairment: { lossPercent: voiceLoss, seed: 1 } } } : {}),
});
say('emulator', `platform emulator up at ${emulator.http} (gateway ${emulator.gateway})`);
say('emulator', `dashboard at ${emulator.dashboard} (add --keep-alive to look around after the tour)`);
say(
  'emulator',
  `test users: ${emulator.users.map((u) => u.username).join(', ')}; application ${emulator.applicationId}`,
);
if (voiceLoss > 0) say('emulator', `the voice server drops ${voiceLoss} % of the call's packets`);

const players = emulator.users.slice(0, 2);
const games = players.map((player, i) => startGame(emulator, player, i === 1));
const bobsGame = games[1];
if (bobsGame) {
  // Before signing in, Bob's game already shows what he does, through the desktop client.
  await bobsGame.updateRichPresence({ type: ActivityTypes.Playing, details: 'In the main menu' });
  say('bob', 'set rich presence through the desktop client (not signed in yet)');
}
const clients = await Promise.all(
  games.map((game, i) => linkAndConnect(game, players[i] ?? { id: '', username: '?' })),
);
const first = clients[0];
if (first) {
  const engine = first.getMediaEngineInfo();
  const selfTest = first.runMediaSelfTest();
  const from = engine.addon ? ` (${engine.addon.origin})` : '';
  say(
    'media',
    `${engine.engine} engine ${engine.version}${from}; crypto ${engine.crypto.version} (${engine.crypto.linkage === 'static' ? 'carried in the addon' : "the host's"})`,
  );
  say('media', `crypto self-test (${engine.features.join(', ')}): ${selfTest.ok ? 'passed' : 'FAILED'}`);
  // The machine's own microphones and speakers (the call below uses WAV files, so it sounds the same
  // everywhere); a game would pick one, or 'default', with setInputDevice / setOutputDevice.
  const system = (devices: { id: string; name: string }[]): string[] =>
    devices.filter((d) => d.id !== 'null' && !d.id.startsWith('wav-')).map((d) => d.name);
  const [inputs, outputs] = [system(await first.getInputDevices()), system(await first.getOutputDevices())];
  const names = (list: string[]): string =>
    list.length > 3 ? `${list.slice(0, 3).join(', ')}, …` : list.join(', ');
  say(
    'media',
    inputs.length + outputs.length === 0
      ? 'system audio devices: none here (the null and WAV devices work everywhere)'
      : `system audio devices: ${inputs.length} inputs (${names(inputs)}), ${outputs.length} outputs (${names(outputs)})`,
  );
}
say('demo', `${clients.length} players linked their accounts and are connected`);

const [alice, bob] = clients.map((client, i): Player => ({ name: players[i]?.username ?? '?', client }));
if (alice && bob) {
  await befriend(alice, bob);
  // The party's lobby secret travels as the rich presence join secret: an accepted invite delivers it.
  const lobbySecret = `party-${randomBytes(12).toString('hex')}`;
  const lobbyId = await openLobby(alice, lobbySecret);
  const presence = await hostParty(alice, bob, lobbySecret);
  const joinSecret = await inviteAndJoin(alice, bob);
  await joinLobby(alice, bob, joinSecret, presence);
  // The game's own server holds the bot token; here it talks to the same emulator.
  const backend = new GameBackend({ botToken: emulator.botToken, apiBase: emulator.api });
  await lobbyChat(alice, bob, lobbyId, backend);
  await lobbyVoiceCall(alice, bob, lobbyId, output);
  await chat(alice, bob);
}

if (keepAlive) {
  say('demo', 'emulator stays up (--keep-alive); press Ctrl+C to stop');
  const stop = (): void => {
    void Promise.all(clients.map((c) => c.destroy()))
      .then(() => emulator.close())
      .then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} else {
  await Promise.all(clients.map((c) => c.destroy()));
  await emulator.close();
  say('demo', 'done');
}
