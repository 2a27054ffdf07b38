import { createSocket, type Socket } from 'node:dgram';

import { DAVESession, type ProposalsOperationType } from '@snazzah/davey';

import { createMediaEngine } from '../../packages/sdkpp/src/media/createMediaEngine.js';
import type { MediaEngine } from '../../packages/sdkpp/src/media/MediaEngine.js';
import type { TransportCryptor, TransportEncryptionMode } from '../../packages/sdkpp/src/media/rtp/types.js';
import type { Emulator } from '../../packages/emulator/src/index.js';
import type { TestGateway } from './helpers.js';
import { Arrivals, QueuedSocket } from './queuedSocket.js';
import { call, nextWhere, player, type Player } from './lobbyHelpers.js';

/** A message from the voice gateway: JSON (`seq` when sequenced) or binary (`seq ‖ op ‖ payload`). */
export interface VoiceMessage {
  op: number;
  d?: unknown;
  seq?: number;
  /** Binary messages only. */
  payload?: Buffer;
  binary: boolean;
}

/** The JS engine, for sealing and opening test packets. */
export const engine: MediaEngine = createMediaEngine({ prefer: 'js' });

/**
 * A minimal raw voice gateway client over ws: it queues every message (text and binary) and records the
 * close, with no protocol logic of its own beyond what each test asks for.
 */
export class RawVoiceClient extends QueuedSocket<VoiceMessage> {
  /** The last seq seen (JSON `seq` or binary header), -1 before any. */
  lastSeq = -1;
  /** Called for every message as it arrives (it is queued as well). */
  readonly listeners: ((m: VoiceMessage) => void)[] = [];

  constructor(url: string) {
    super(
      url,
      {},
      {
        closed: 'voice socket closed while waiting for a message',
        timedOut: 'timed out waiting for a voice message',
      },
    );
  }

  protected parse(data: Buffer, isBinary: boolean): VoiceMessage {
    let message: VoiceMessage;
    if (isBinary) {
      message = { seq: data.readUInt16BE(0), op: data[2] ?? -1, payload: data.subarray(3), binary: true };
      this.lastSeq = message.seq ?? this.lastSeq;
    } else {
      message = JSON.parse(data.toString('utf8')) as VoiceMessage;
      message.binary = false;
      if (typeof message.seq === 'number') this.lastSeq = message.seq;
    }
    for (const listener of this.listeners) listener(message);
    return message;
  }

  /** Opens `ws://{endpoint}/?{query}`. */
  static async connect(endpoint: string, query = 'v=8'): Promise<RawVoiceClient> {
    const client = new RawVoiceClient(`ws://${endpoint}/?${query}`);
    await client.opened;
    return client;
  }

  /** Sends a client binary message: `u8 op ‖ payload`. */
  sendBinary(op: number, payload: Uint8Array): void {
    this.ws.send(Buffer.concat([Buffer.from([op]), payload]));
  }

  /** The next message with `op`. */
  op(op: number, timeoutMs?: number): Promise<VoiceMessage> {
    return this.next((m) => m.op === op, timeoutMs);
  }
}

/** A UDP socket bound to loopback that queues datagrams. */
export class TestUdp {
  readonly socket: Socket;
  readonly received: Buffer[] = [];
  readonly #arrivals = new Arrivals();

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on('message', (msg) => {
      this.received.push(msg);
      this.#arrivals.wake();
    });
  }

  /** Binds a socket on 127.0.0.1. */
  static async open(): Promise<TestUdp> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    return new TestUdp(socket);
  }

  /** The local port. */
  get port(): number {
    return this.socket.address().port;
  }

  /** Sends a datagram to the emulator's UDP port. */
  send(data: Uint8Array, port: number): void {
    this.socket.send(data, port, '127.0.0.1');
  }

  /** Waits until `count` datagrams have arrived. */
  async waitFor(count: number, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out: ${this.received.length} of ${count} datagrams`);
      await this.#arrivals.until(left);
    }
  }

  /** Takes (and removes) the datagrams received so far. */
  take(): Buffer[] {
    return this.received.splice(0);
  }

  /** IP discovery for `ssrc`; resolves with what the server saw. */
  async discover(ssrc: number, port: number): Promise<{ address: string; port: number }> {
    const request = Buffer.alloc(74);
    engine.encodeIpDiscovery({ type: 'request', ssrc, address: '', port: 0 }, request);
    const before = this.received.length;
    this.send(request, port);
    await this.waitFor(before + 1);
    const reply = this.received.splice(before, 1)[0] as Buffer;
    const decoded = engine.decodeIpDiscovery(reply);
    if (!decoded.ok || decoded.packet.type !== 'response') throw new Error('bad IP discovery reply');
    return { address: decoded.packet.address, port: decoded.packet.port };
  }

  close(): void {
    this.socket.close();
  }
}

/** What a main gateway join yields: the voice state's session id and the server update. */
export interface JoinedCall {
  lobbyId: string;
  userId: string;
  sessionId: string;
  token: string;
  endpoint: string;
}

/** Joins a lobby call with op 17; resolves with the own voice state and the server update. */
export async function joinCall(
  gw: TestGateway,
  userId: string,
  lobbyId: string,
  flags: { selfMute?: boolean; selfDeaf?: boolean } = {},
): Promise<JoinedCall> {
  gw.send(17, [
    { lobby_id: lobbyId, self_mute: flags.selfMute ?? false, self_deaf: flags.selfDeaf ?? false },
  ]);
  const state = await nextWhere(
    gw,
    'LOBBY_VOICE_STATE_UPDATE',
    (d) => d.user_id === userId && d.channel_id === lobbyId,
  );
  const server = await nextWhere(gw, 'LOBBY_VOICE_SERVER_UPDATE', (d) => d.lobby_id === lobbyId);
  return {
    lobbyId,
    userId,
    sessionId: String(state.session_id),
    token: String(server.token),
    endpoint: String(server.endpoint),
  };
}

/** A voice connection after the whole handshake: SSRC, mode, key, UDP socket and a sealing cryptor. */
export interface VoiceConnection {
  client: RawVoiceClient;
  udp: TestUdp;
  ssrc: number;
  udpPort: number;
  mode: TransportEncryptionMode;
  key: Uint8Array;
  cryptor: TransportCryptor;
  ready: Record<string, unknown>;
  description: Record<string, unknown>;
}

/** Hello → Identify → Ready → IP discovery → Select Protocol → Session Description, over real sockets. */
export async function connectVoice(
  joined: JoinedCall,
  options: { mode?: TransportEncryptionMode; maxDave?: number } = {},
): Promise<VoiceConnection> {
  const client = await RawVoiceClient.connect(joined.endpoint);
  await client.op(8);
  client.send(0, {
    server_id: joined.lobbyId,
    user_id: joined.userId,
    session_id: joined.sessionId,
    token: joined.token,
    max_dave_protocol_version: options.maxDave ?? 1,
  });
  const ready = (await client.op(2)).d as Record<string, unknown>;
  const ssrc = Number(ready.ssrc);
  const udpPort = Number(ready.port);
  const udp = await TestUdp.open();
  const seen = await udp.discover(ssrc, udpPort);
  const mode = options.mode ?? 'aead_aes256_gcm_rtpsize';
  client.send(1, { protocol: 'udp', data: { address: seen.address, port: seen.port, mode } });
  const description = (await client.op(4)).d as Record<string, unknown>;
  const key = Uint8Array.from(description.secret_key as number[]);
  return {
    client,
    udp,
    ssrc,
    udpPort,
    mode,
    key,
    cryptor: engine.createTransportCryptor(mode, key),
    ready,
    description,
  };
}

/** Seals one RTP packet (Opus payload type) with the connection's key and sends it. */
export function sendRtp(
  conn: VoiceConnection,
  payload: Uint8Array,
  sequence: number,
  extension?: { profile: number; body: Uint8Array },
): Buffer {
  const header = {
    sequence,
    timestamp: sequence * 960,
    ssrc: conn.ssrc,
    ...(extension ? { extension } : {}),
  };
  const out = Buffer.alloc(conn.cryptor.sealedLength(header, payload.length));
  const length = conn.cryptor.seal(header, payload, out);
  const packet = out.subarray(0, length);
  conn.udp.send(packet, conn.udpPort);
  return packet;
}

/** A lobby with the given players as members (created by the first); returns its id. */
export async function lobbyWith(emu: Emulator, players: Player[], secret = 'voice-lobby'): Promise<string> {
  let id = '';
  for (const p of players) {
    const reply = await call(emu, p.auth, 'PUT', '/lobbies', { secret });
    if (reply.status !== 200) throw new Error(`lobby join failed: ${reply.status}`);
    id = String(reply.json.id);
  }
  return id;
}

export { player };

/** Alice and Bob signed in, members of one lobby, each with a main gateway connection. */
export async function pairInLobby(emu: Emulator): Promise<{
  alice: Player;
  bob: Player;
  lobbyId: string;
  aliceGw: TestGateway;
  bobGw: TestGateway;
}> {
  const alice = await player(emu, 'alice');
  const bob = await player(emu, 'bob');
  const lobbyId = await lobbyWith(emu, [alice, bob]);
  const { gw: aliceGw } = await alice.connect();
  const { gw: bobGw } = await bob.connect();
  return { alice, bob, lobbyId, aliceGw, bobGw };
}

/** Closes a voice connection's UDP socket and WebSocket. */
export function closeVoice(conn: VoiceConnection): void {
  conn.udp.close();
  conn.client.ws.close();
}

/** davey's `ProposalsOperationType` values (a const enum, which isolated modules cannot import). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment -- a plain number typed as davey's enum
const APPEND = 0 as ProposalsOperationType;
// eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment -- a plain number typed as davey's enum
const REVOKE = 1 as ProposalsOperationType;

/** DAVE ops a {@link DaveyMember} handles. */
const DAVE_OPS = new Set([11, 13, 21, 22, 24, 25, 27, 29, 30]);

/**
 * A DAVE member driven by `@snazzah/davey` (an independent implementation) over a raw voice client, the way
 * discord.js drives it: op 25 → key package (op 26); op 27 → commit and welcome (op 28); op 29 / op 30 →
 * process, then op 23 unless the transition id is 0; op 21 → op 23; op 24 epoch 1 → reinit and a new key
 * package. Failures are recorded, and answered with op 31 as the whitepaper says.
 */
export class DaveyMember {
  readonly session: DAVESession;
  readonly errors: string[] = [];
  readonly #client: RawVoiceClient;
  readonly #recognized = new Set<string>();
  readonly #userId: string;
  readonly #channelId: string;

  constructor(client: RawVoiceClient, userId: string, channelId: string) {
    this.#client = client;
    this.#userId = userId;
    this.#channelId = channelId;
    this.#recognized.add(userId);
    this.session = new DAVESession(1, userId, channelId);
    // What arrived before this member was attached first, in order.
    for (const message of client.pending()) if (DAVE_OPS.has(message.op)) this.#handle(message);
    client.listeners.push((message) => {
      if (DAVE_OPS.has(message.op)) this.#handle(message);
    });
  }

  #handle(m: VoiceMessage): void {
    const d = (m.d ?? {}) as Record<string, unknown>;
    const payload = m.payload ?? Buffer.alloc(0);
    try {
      switch (m.op) {
        case 11:
          for (const id of d.user_ids as string[]) this.#recognized.add(id);
          return;
        case 13:
          this.#recognized.delete(String(d.user_id));
          return;
        case 25:
          this.session.setExternalSender(payload);
          this.#client.sendBinary(26, this.session.getSerializedKeyPackage());
          return;
        case 27: {
          const operation: ProposalsOperationType = payload[0] === 1 ? REVOKE : APPEND;
          const result = this.session.processProposals(operation, payload.subarray(1), [...this.#recognized]);
          if (result.commit) {
            this.#client.sendBinary(28, Buffer.concat([result.commit, result.welcome ?? Buffer.alloc(0)]));
          }
          return;
        }
        case 29:
        case 30: {
          const tid = payload.readUInt16BE(0);
          try {
            if (m.op === 29) this.session.processCommit(payload.subarray(2));
            else this.session.processWelcome(payload.subarray(2));
          } catch (error) {
            this.errors.push(`op ${m.op}: ${String(error)}`);
            this.#client.send(31, { transition_id: tid });
            this.session.reinit(1, this.#userId, this.#channelId);
            this.#client.sendBinary(26, this.session.getSerializedKeyPackage());
            return;
          }
          if (tid !== 0) this.#client.send(23, { transition_id: tid });
          return;
        }
        case 21:
          if (d.transition_id !== 0) this.#client.send(23, { transition_id: d.transition_id });
          return;
        case 24:
          if (d.epoch === 1) {
            this.session.reinit(1, this.#userId, this.#channelId);
            this.#client.sendBinary(26, this.session.getSerializedKeyPackage());
          }
          return;
        default:
          return;
      }
    } catch (error) {
      this.errors.push(`op ${m.op}: ${String(error)}`);
    }
  }
}
