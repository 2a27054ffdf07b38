/**
 * Activity sample: Catch the Star, a small multiplayer web game that runs inside the client as an Activity.
 * One command starts an emulator, the game's own server behind the emulator's Activity proxy, and launches
 * the game for two players in the seeded guild's voice channel. Open the two printed links (two browser
 * windows): each player authorizes the game, both join the same instance and see each other, and every star
 * caught shows in the player's rich presence. See README.md.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';

import { startEmulator } from '@sdkpp/emulator';

import { startActivityServer } from './server.js';

const USAGE = `Usage: npm run example:activity -- [options]

Starts an emulator and the game's server, and launches Catch the Star for two players.
Open the two printed links in a browser (they are the players' client windows).

Options:
  --port N      the emulator's port (default: any free port)
  --players N   how many players to launch it for, 1–3 (default 2)
  -h, --help    show this help
`;

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    players: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help === true) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const players = Number(values.players ?? '2');
const port = Number(values.port ?? '0');
if (!Number.isInteger(players) || players < 1 || players > 3 || !Number.isInteger(port) || port < 0) {
  process.stderr.write(USAGE);
  process.exit(2);
}

// The client secret is the developer portal's; here the sample picks one for its emulator.
const clientSecret = randomBytes(24).toString('base64url');
const emulator = await startEmulator({
  port,
  clientSecret,
  applicationName: 'Catch the Star',
  users: 3,
});
// Made in the developer portal: what the game's shop sells (the emulator takes no payment).
emulator.createSku({ name: 'Golden Board', type: 'durable', price: { amount: 499, currency: 'usd' } });
const game = await startActivityServer({ api: emulator.api, clientId: emulator.applicationId, clientSecret });
// The portal's URL Mappings page: the root goes to the game's own server, /tips to the tips service.
emulator.setActivityUrlMappings([
  { prefix: '/', target: game.url },
  { prefix: '/tips', target: game.tipsUrl },
]);

const guild = emulator.guilds()[0];
const voice = guild?.channels.find((c) => c.type === 2);
if (!voice) throw new Error('the seeded guild has no voice channel');
process.stdout.write(`Catch the Star is running. Game server: ${game.url}\n`);
process.stdout.write(`Launched in the voice channel "${voice.name}" of ${guild?.name ?? 'the guild'}:\n`);
for (const user of emulator.users.slice(0, players)) {
  const launch = emulator.launchActivity({ user: user.id, channel: voice.id });
  process.stdout.write(`  ${user.username}: ${launch.url}\n`);
}
process.stdout.write('Open each link in its own browser window. Ctrl+C stops.\n');

const stop = (): void => {
  void Promise.all([game.close(), emulator.close()]).then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
