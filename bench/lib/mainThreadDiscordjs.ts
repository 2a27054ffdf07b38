// The measured client of `call-main-thread-25` on the discord.js stack (bench/mainThread.ts runs it in its
// own process, with @discordjs/opus on NODE_PATH for prism-media): @discordjs/voice 0.19 joins the lobby's
// call as the application's bot does (op 4 on the main gateway, whose VOICE_STATE_UPDATE and
// VOICE_SERVER_UPDATE feed joinVoiceChannel's adapter), with DAVE through davey. Its receiver is subscribed
// to every speaker and each stream is decoded to PCM by prism-media's Opus decoder (@discordjs/opus), the
// way a bot that listens does; an AudioPlayer plays the WAV file (raw PCM, Opus-encoded by prism-media with
// @discordjs/opus) into the call. The main gateway connection is a plain WebSocket with heartbeats.
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';

import {
  AudioPlayerStatus,
  createAudioPlayer,
  createAudioResource,
  EndBehaviorType,
  entersState,
  joinVoiceChannel,
  NoSubscriberBehavior,
  StreamType,
  VoiceConnectionStatus,
  type DiscordGatewayAdapterLibraryMethods,
  type VoiceConnection,
} from '@discordjs/voice';
import WebSocket from 'ws';

import { until } from './callSetup.js';
import { measureWindow, nextMessage, runChild, settled, tell, type ChildConfig } from './mainThreadIpc.js';

const require = createRequire(import.meta.url);
// prism-media is CommonJS and has no types of its own; only its Opus decoder is used.
const prism = require('prism-media') as {
  opus: {
    Decoder: new (options: {
      rate: number;
      channels: number;
      frameSize: number;
    }) => NodeJS.ReadWriteStream & {
      encoder?: { constructor: { name: string } };
    };
  };
};

/** The bot's main gateway session: READY's user id, and the voice events handed to the adapter. */
class BotGateway {
  readonly #ws: WebSocket;
  #heartbeat: NodeJS.Timeout | undefined;
  #retry: NodeJS.Timeout | undefined;
  #seq: number | null = null;
  userId = '';
  adapter: DiscordGatewayAdapterLibraryMethods | undefined;

  constructor(url: string, token: string, voiceEndpoint: string) {
    this.#ws = new WebSocket(`${url}?v=10&encoding=json`);
    const identify = (): void => {
      // GUILDS | GUILD_VOICE_STATES, as a voice bot identifies.
      this.send(2, {
        token,
        intents: 1 | (1 << 7),
        properties: { os: 'linux', browser: 'bench', device: 'bench' },
      });
    };
    this.#ws.on('message', (raw: Buffer) => {
      const { op, d, s, t } = JSON.parse(raw.toString('utf8')) as {
        op: number;
        d: unknown;
        s?: number;
        t?: string;
      };
      if (typeof s === 'number') this.#seq = s;
      if (op === 10) {
        const { heartbeat_interval: interval } = d as { heartbeat_interval: number };
        this.#heartbeat = setInterval(() => this.send(1, this.#seq), interval);
        identify();
      } else if (op === 9) {
        // Invalid session: a bot's Identify came within 5 s of its last one (a retried join); again later.
        this.#retry = setTimeout(identify, 5500);
      } else if (op === 0 && t === 'READY') {
        this.userId = (d as { user: { id: string } }).user.id;
      } else if (op === 0 && t === 'VOICE_STATE_UPDATE') {
        const state = d as { user_id: string } & Parameters<
          DiscordGatewayAdapterLibraryMethods['onVoiceStateUpdate']
        >[0];
        if (state.user_id === this.userId) this.adapter?.onVoiceStateUpdate(state);
      } else if (op === 0 && t === 'VOICE_SERVER_UPDATE') {
        const server = d as Parameters<DiscordGatewayAdapterLibraryMethods['onVoiceServerUpdate']>[0];
        // @discordjs/voice connects to wss://endpoint; the bench's TLS front forwards to the emulator.
        this.adapter?.onVoiceServerUpdate({ ...server, endpoint: voiceEndpoint });
      }
    });
  }

  send(op: number, d: unknown): boolean {
    if (this.#ws.readyState !== WebSocket.OPEN) return false;
    this.#ws.send(JSON.stringify({ op, d }));
    return true;
  }

  close(): void {
    clearInterval(this.#heartbeat);
    clearTimeout(this.#retry);
    this.#ws.close(1000);
  }
}

/** Joins the call with @discordjs/voice; resolves once its connection is Ready and in the DAVE group. */
async function join(config: ChildConfig, gateway: BotGateway): Promise<VoiceConnection> {
  await until(() => gateway.userId !== '', 15_000, 'the bot READY');
  const connection = joinVoiceChannel({
    guildId: config.lobbyId,
    channelId: config.lobbyId,
    selfDeaf: false,
    selfMute: false,
    adapterCreator: (methods) => {
      gateway.adapter = methods;
      return {
        // The adapter's payloads are gateway frames ({op, d}); the library types them as any.
        sendPayload: (payload: { op: number; d: unknown }) => gateway.send(payload.op, payload.d),
        destroy: () => undefined,
      };
    },
  });
  await entersState(connection, VoiceConnectionStatus.Ready, 20_000);
  await until(() => (connection.voicePrivacyCode ?? '') !== '', 20_000, 'the DAVE group');
  return connection;
}

/** The connection's state, its networking state and its DAVE session's protocol version, in words. */
function describe(connection: VoiceConnection): string {
  const state = connection.state as {
    status: string;
    networking?: { state: { code: number; dave?: { protocolVersion: number } } };
  };
  const networking = state.networking?.state;
  return (
    `connection ${state.status}, networking state ${networking?.code ?? 'none'}, ` +
    `DAVE protocol ${networking?.dave?.protocolVersion ?? 'none'}`
  );
}

runChild(async (config) => {
  const gateway = new BotGateway(config.gateway, config.token, config.voiceEndpoint);
  let connection: VoiceConnection | undefined;
  try {
    connection = await join(config, gateway);
    const receiver = connection.receiver;
    // Decoded 20 ms frames per speaker, and streams the receiver ended on an error (and that were reopened).
    const frames = new Map<string, number>();
    let streamErrors = 0;
    let decodeErrors = 0;
    let opusLibrary = '';
    let running = true;
    const listen = (userId: string): void => {
      if (receiver.subscriptions.has(userId) || !running) return;
      const opus = receiver.subscribe(userId, { end: { behavior: EndBehaviorType.Manual } });
      // A decoder that meets a packet it cannot decode errors and ends, as a Transform does: a new one takes
      // over (what a bot that keeps listening has to do).
      const decode = (): void => {
        const decoder = new prism.opus.Decoder({ rate: 48_000, channels: 2, frameSize: 960 });
        opusLibrary ||= decoder.encoder?.constructor.name ?? '';
        decoder.on('error', () => {
          decodeErrors += 1;
          opus.unpipe(decoder);
          if (running) decode();
        });
        decoder.on('data', () => {
          frames.set(userId, (frames.get(userId) ?? 0) + 1);
        });
        opus.pipe(decoder);
      };
      opus.on('error', () => {
        streamErrors += 1;
      });
      opus.once('close', () => {
        setImmediate(() => {
          listen(userId);
        });
      });
      decode();
    };
    receiver.speaking.on('start', listen);

    const player = createAudioPlayer({ behaviors: { noSubscriber: NoSubscriberBehavior.Play } });
    // The WAV's samples after its 44-byte header: 48 kHz stereo 16-bit, what StreamType.Raw expects.
    player.play(
      createAudioResource(createReadStream(config.wav, { start: 44 }), { inputType: StreamType.Raw }),
    );
    const joined = connection;
    joined.subscribe(player);
    await entersState(player, AudioPlayerStatus.Playing, 5000);
    const privacyCode = await settled(() => joined.voicePrivacyCode ?? '').catch((error: unknown) => {
      throw new Error(`${error instanceof Error ? error.message : String(error)} (${describe(joined)})`);
    });
    tell({ type: 'ready', privacyCode });
    await nextMessage('go');

    let before = new Map<string, number>();
    let errorsBefore = 0;
    const window = measureWindow(config.warmupMs, config.windowMs);
    // The frame counts at the window's start, taken on the 'edge' the window sends (a microtask later).
    setTimeout(() => {
      before = new Map(frames);
      errorsBefore = decodeErrors;
    }, config.warmupMs);
    const measured = await window;
    const perSpeaker = [...frames].map(([id, n]) => n - (before.get(id) ?? 0));
    // As the parent's packet checks: 80 % of the window's frames at least (a loaded machine delays some past it).
    const expected = (config.windowMs / 20) * 0.8;
    const full = perSpeaker.filter((n) => n >= expected).length;
    const playing = player.state.status === AudioPlayerStatus.Playing;
    tell({
      type: 'result',
      result: {
        ...measured,
        ok: full === 24 && playing && opusLibrary === 'OpusEncoder',
        detail:
          `${full} of ${perSpeaker.length} speakers decoded ≥ 80 % of the window's frames (min ${Math.min(...perSpeaker)}, ` +
          `max ${Math.max(...perSpeaker)} of ${config.windowMs / 20}); ${streamErrors} receive stream errors, ` +
          `${decodeErrors} decode errors (${decodeErrors - errorsBefore} in the window); ` +
          `the player ${playing ? 'still plays' : 'stopped'}; prism-media's Opus is ${opusLibrary || 'unknown'}`,
      },
    });
    await nextMessage('leave');
    running = false;
    player.stop(true);
  } finally {
    connection?.destroy();
    gateway.close();
  }
});
