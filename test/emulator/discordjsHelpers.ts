import { Client, Events, type GatewayIntentBits, type Guild } from 'discord.js';
import { afterEach } from 'vitest';

import { startEmulator, type Emulator, type EmulatorOptions } from '../../packages/emulator/src/index.js';

/** A discord.js bot against the emulator for the tests of a `describe`: see {@link discordjsBotAfterEach}. */
export interface DiscordjsBot {
  /**
   * Starts an emulator for the test. The one started last is closed after each test (an emulator a test
   * replaces, to restart from a saved state, is the test's to close first).
   */
  start(options?: EmulatorOptions): Promise<Emulator>;
  /**
   * A new discord.js v14 client with the intents, pointed at `emu` (REST at `${emu.http}/api`; the gateway
   * through GET /gateway/bot), logged in with the bot token: resolves at ClientReady. It becomes
   * {@link DiscordjsBot.client} before it logs in, so that a failed login is destroyed after the test too.
   */
  connect(emu: Emulator): Promise<Client>;
  /** {@link DiscordjsBot.connect}, then the first guild the bot sees (an error if it sees none). */
  login(emu: Emulator): Promise<Guild>;
  /** Destroys the client (before a restart, say); the next {@link DiscordjsBot.connect} makes another. */
  logout(): Promise<void>;
  /** The last connect's client, for a test that awaits its events; undefined before it and after logout. */
  readonly client: Client | undefined;
}

/**
 * Registers an `afterEach` that destroys the bot's client and then closes its emulator (the client first, so
 * that it is not left trying to reconnect to a closed emulator), and returns the bot. Call it once in a
 * `describe`: the intents are those of every client its tests connect.
 */
export function discordjsBotAfterEach(intents: readonly GatewayIntentBits[]): DiscordjsBot {
  let emu: Emulator | undefined;
  let client: Client | undefined;
  afterEach(async () => {
    await client?.destroy();
    await emu?.close();
    client = undefined;
    emu = undefined;
  });
  const connect = async (e: Emulator): Promise<Client> => {
    const made = new Client({ intents: [...intents], rest: { api: `${e.http}/api` } });
    client = made;
    const ready = new Promise<void>((resolve) => made.once(Events.ClientReady, () => resolve()));
    await made.login(e.botToken);
    await ready;
    return made;
  };
  return {
    async start(options) {
      emu = await startEmulator(options);
      return emu;
    },
    connect,
    async login(e) {
      const guild = (await connect(e)).guilds.cache.first();
      if (!guild) throw new Error('no guild');
      return guild;
    },
    async logout() {
      await client?.destroy();
      client = undefined;
    },
    get client() {
      return client;
    },
  };
}
