/**
 * The engine-plugin sample: a tiny engine host loads a social plugin written against `sdkpp/bindings`, the
 * SDK-shaped API, and a game script. With no address it starts an embedded emulator (two test players,
 * alice and bob, already friends); `--emulator <url>` uses one running in another terminal (its application id
 * comes from its `/emulator.json`, or from `--app-id <id>`).
 *
 *   npm run example:engine-plugin
 *   npm run example:engine-plugin -- --emulator http://127.0.0.1:53111
 */
import { parseArgs } from 'node:util';

import { emulatorBrowser, emulatorInfoAt, startEmulator, type Emulator } from '@sdkpp/emulator';

import { Engine } from './engine.js';
import { GameScript } from './gameScript.js';
import { say } from './print.js';
import { SocialPlugin, type SocialPluginSettings } from './socialPlugin.js';

const { values } = parseArgs({
  options: {
    emulator: { type: 'string' },
    'app-id': { type: 'string' },
    player: { type: 'string', default: 'alice' },
    frames: { type: 'string', default: '60' },
  },
});
const emulatorUrl = values.emulator ?? process.env.SDKPP_EMULATOR;
const framesAfterPresence = Number(values.frames);
if (!Number.isInteger(framesAfterPresence) || framesAfterPresence < 1) {
  process.stderr.write('--frames takes a whole number of frames, at least 1\n');
  process.exit(2);
}
const presence = { details: 'Exploring the harbour', state: 'Solo, level 3' };

let embedded: Emulator | undefined;
let platform: Omit<SocialPluginSettings, 'presence'>;
if (emulatorUrl) {
  if (!URL.canParse(emulatorUrl)) {
    process.stderr.write(`--emulator takes the emulator's http address, e.g. http://127.0.0.1:53111\n`);
    process.exit(2);
  }
  const http = new URL(emulatorUrl).origin;
  const info = await emulatorInfoAt(http).catch(() => undefined);
  const given = values['app-id'] ?? process.env.SDKPP_APPLICATION_ID;
  const applicationId = given === undefined || given === '' ? info?.applicationId : given;
  if (!applicationId) {
    process.stderr.write(
      `no emulator answered at ${http}; give the application id it runs with: --app-id <id> (or SDKPP_APPLICATION_ID)\n`,
    );
    process.exit(2);
  }
  platform = {
    applicationId,
    apiBase: info?.api ?? `${http}/api/v10`,
    webBase: http,
    openUrl: emulatorBrowser(http, values.player),
  };
  say('emulator', `using the emulator at ${http}`);
} else {
  embedded = await startEmulator({ users: 2, autoConsent: true, rpc: false, seedGuild: false });
  const [alice, bob] = embedded.users;
  if (alice && bob) embedded.befriend(alice.id, bob.id);
  platform = {
    applicationId: embedded.applicationId,
    apiBase: embedded.api,
    webBase: embedded.http,
    openUrl: embedded.browserAs(values.player),
  };
  say('emulator', `embedded emulator at ${embedded.http}; players alice and bob are friends`);
}

const social = new SocialPlugin({ ...platform, presence });
const engine = new Engine({ stepsPerSecond: 60 }).addPlugin(social).addPlugin(
  new GameScript({
    social,
    framesAfterPresence,
    timeoutSeconds: 30,
    ...(embedded ? { emulator: embedded } : {}),
  }),
);
const exitCode = await engine.run();
say('engine', `stopped after ${engine.frame} frames, exit code ${exitCode}`);
await embedded?.close();
process.exitCode = exitCode;
