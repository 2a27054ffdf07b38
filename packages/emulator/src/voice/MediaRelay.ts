import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';

import { IP_DISCOVERY_SIZE, type MediaEngine, type RtpHeaderInit, type TransportCryptor } from 'sdkpp/media';
import type { EmulatorLog } from '../log.js';
import type { EmulatorVoiceCounters, EmulatorVoiceUdpCounters } from '../types.js';
import { Impairment, type ImpairmentStats, type VoiceImpairment } from './impairment.js';

/** One voice connection as the forwarding unit sees it; the voice server fills in key and address. */
export interface RelayMember {
  readonly ssrc: number;
  readonly userId: string;
  /** The call (its channel id: a lobby's or a guild voice channel's) it belongs to. */
  readonly callId: string;
  /** Its transport cryptor, once Select Protocol chose a mode and op 4 sent the key. */
  cryptor: TransportCryptor | null;
  /** Where its packets come from and go to: pinned by IP discovery, else taken from Select Protocol. */
  address: { address: string; port: number } | null;
  /**
   * Whether `address` was pinned by IP discovery. Then neither Select Protocol nor a later discovery from
   * another address can move it: the first discovery of a voice session owns it.
   */
  discovered: boolean;
  /** A test hook: while true, nothing is forwarded to this member (its own packets still go out). */
  blocked: boolean;
  /** Server mute, no SPEAK or a stage audience: its packets are forwarded to nobody. */
  silenced: boolean;
  /** Server deafen: nothing is forwarded to it. */
  deafened: boolean;
  /** RTP packets accepted from this member. */
  packetsFromClient: number;
  /** RTP packets forwarded to this member. */
  packetsToClient: number;
}

/** Per-call counters of the forwarding unit. */
export type VoiceCallCounters = EmulatorVoiceCounters;

/** Counters for datagrams that belong to no call. */
export type RelayCounters = EmulatorVoiceUdpCounters;

/** A fresh, all-zero {@link VoiceCallCounters}. */
export function emptyCallCounters(): VoiceCallCounters {
  return {
    packetsIn: 0,
    bytesIn: 0,
    packetsForwarded: 0,
    bytesForwarded: 0,
    droppedForeignSource: 0,
    droppedDecrypt: 0,
    droppedImpairment: 0,
    discoveries: 0,
    refusedDiscoveries: 0,
    droppedBlocked: 0,
    droppedSilenced: 0,
    droppedDeafened: 0,
  };
}

const PING_REQUEST = 0x1337cafe;
const PING_REPLY = 0x1337f00d;
/** The largest packet read; an Opus frame with headers is far below it. */
const SCRATCH_SIZE = 65_536;

/**
 * The UDP forwarding unit: one socket for every call. It answers IP discovery, pins each SSRC to the
 * address that discovered it, opens each RTP packet with the sender's transport key, and seals the same
 * header and payload again for every other member of the call with that member's key, mode and nonce
 * counter. The payload (an Opus frame, a silence frame or a DAVE frame) is never looked into. RTCP and
 * keep-alives are counted and dropped; UDP pings are answered.
 */
export class MediaRelay {
  readonly #socket: Socket;
  readonly #engine: MediaEngine;
  readonly #log: EmulatorLog;
  readonly #bySsrc = new Map<number, RelayMember>();
  readonly #byCall = new Map<string, Set<RelayMember>>();
  readonly #counters = new Map<string, VoiceCallCounters>();
  readonly #totals: RelayCounters = {
    datagrams: 0,
    unknownSsrc: 0,
    rtcp: 0,
    keepAlives: 0,
    pings: 0,
    malformed: 0,
  };
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #scratch = Buffer.alloc(SCRATCH_SIZE);
  #impairment: Impairment | null = null;
  #closed = false;

  constructor(engine: MediaEngine, log: EmulatorLog) {
    this.#engine = engine;
    this.#log = log;
    this.#socket = createSocket({ type: 'udp4' });
    this.#socket.on('message', (msg, rinfo) => {
      try {
        this.#onDatagram(msg, rinfo);
      } catch (error) {
        // A datagram must never take the emulator down.
        this.#totals.malformed += 1;
        this.#log.line('voice-udp', `datagram dropped: ${error instanceof Error ? error.name : 'error'}`);
      }
    });
    this.#socket.on('error', (error) => {
      this.#log.line('voice-udp', `socket error: ${error.message}`);
    });
  }

  /** Binds the socket; resolves with the port. */
  bind(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (error: Error): void => {
        reject(error);
      };
      this.#socket.once('error', onError);
      this.#socket.bind(port, host, () => {
        this.#socket.off('error', onError);
        resolve(this.#socket.address().port);
      });
    });
  }

  /** Closes the socket and cancels delayed packets. */
  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    return new Promise((resolve) => {
      this.#socket.close(() => {
        resolve();
      });
    });
  }

  /** Adds a member (its SSRC must be unused). */
  add(member: RelayMember): void {
    this.#bySsrc.set(member.ssrc, member);
    let set = this.#byCall.get(member.callId);
    if (!set) {
      set = new Set();
      this.#byCall.set(member.callId, set);
    }
    set.add(member);
    if (!this.#counters.has(member.callId)) this.#counters.set(member.callId, emptyCallCounters());
  }

  /** Removes a member; a call's counters go with its last member. */
  remove(member: RelayMember): void {
    if (this.#bySsrc.get(member.ssrc) === member) this.#bySsrc.delete(member.ssrc);
    const set = this.#byCall.get(member.callId);
    set?.delete(member);
    if (set?.size === 0) {
      this.#byCall.delete(member.callId);
      this.#counters.delete(member.callId);
    }
  }

  /** Whether an SSRC is taken. */
  hasSsrc(ssrc: number): boolean {
    return this.#bySsrc.has(ssrc);
  }

  /** A copy of a call's counters (all zero for a call without members). */
  callCounters(callId: string): VoiceCallCounters {
    return { ...(this.#counters.get(callId) ?? emptyCallCounters()) };
  }

  /** A copy of the counters of datagrams that belong to no call. */
  totals(): RelayCounters {
    return { ...this.#totals };
  }

  /** Sets (or with null clears) the impairment applied to every forwarded packet; counters restart. */
  setImpairment(settings: VoiceImpairment | null): void {
    this.#impairment = settings === null ? null : new Impairment(settings);
    const s = this.#impairment?.settings;
    this.#log.line(
      'voice-udp',
      s
        ? `impairment: loss ${s.lossPercent}%, delay ${s.delayMs} ms, jitter ${s.jitterMs} ms, reorder ${s.reorderPercent}%, seed ${s.seed}`
        : 'impairment off',
    );
  }

  /** The impairment's counters, or null when none is set. */
  impairmentStats(): ImpairmentStats | null {
    return this.#impairment?.stats() ?? null;
  }

  #onDatagram(msg: Buffer, rinfo: RemoteInfo): void {
    this.#totals.datagrams += 1;
    if (msg.length === IP_DISCOVERY_SIZE && msg.readUInt16BE(0) === 1) {
      this.#discover(msg, rinfo);
      return;
    }
    if (msg.length === 8) {
      if (msg.readUInt32BE(0) === PING_REQUEST) {
        const reply = Buffer.alloc(8);
        reply.writeUInt32BE(PING_REPLY, 0);
        msg.copy(reply, 4, 4, 8);
        this.#socket.send(reply, rinfo.port, rinfo.address);
        this.#totals.pings += 1;
      } else {
        this.#totals.keepAlives += 1;
      }
      return;
    }
    if (msg.length < 12 || msg[0] === undefined || msg[0] >> 6 !== 2) {
      this.#totals.malformed += 1;
      return;
    }
    const type = (msg[1] ?? 0) & 0x7f;
    if (type >= 72 && type <= 78) {
      // RTCP (PT 200–206) shares the port; the emulator does not use it.
      this.#totals.rtcp += 1;
      return;
    }
    this.#forward(msg, rinfo);
  }

  #discover(msg: Buffer, rinfo: RemoteInfo): void {
    const decoded = this.#engine.decodeIpDiscovery(msg);
    if (!decoded.ok) {
      this.#totals.malformed += 1;
      return;
    }
    const member = this.#bySsrc.get(decoded.packet.ssrc);
    if (!member) {
      this.#totals.unknownSsrc += 1;
      return;
    }
    const counters = this.#counters.get(member.callId);
    const pinned = member.discovered ? member.address : null;
    if (pinned && (pinned.address !== rinfo.address || pinned.port !== rinfo.port)) {
      // An SSRC is no secret (every member's op 5 carries it): re-pinning on any discovery would let any
      // UDP socket take a member's audio. The first discovery of the voice session owns the address; a
      // client whose path really changed identifies again and gets a new session.
      if (counters) counters.refusedDiscoveries += 1;
      this.#log.line(
        'voice-udp',
        `IP discovery for ssrc ${member.ssrc} from ${rinfo.address}:${rinfo.port} refused: pinned to ${pinned.address}:${pinned.port}`,
      );
      return;
    }
    member.address = { address: rinfo.address, port: rinfo.port };
    member.discovered = true;
    if (counters) counters.discoveries += 1;
    const reply = Buffer.alloc(IP_DISCOVERY_SIZE);
    this.#engine.encodeIpDiscovery(
      { type: 'response', ssrc: member.ssrc, address: rinfo.address, port: rinfo.port },
      reply,
    );
    this.#socket.send(reply, rinfo.port, rinfo.address);
  }

  #forward(msg: Buffer, rinfo: RemoteInfo): void {
    const ssrc = msg.readUInt32BE(8);
    const sender = this.#bySsrc.get(ssrc);
    if (!sender) {
      this.#totals.unknownSsrc += 1;
      return;
    }
    const counters = this.#counters.get(sender.callId) ?? emptyCallCounters();
    if (
      !sender.cryptor ||
      !sender.address ||
      sender.address.address !== rinfo.address ||
      sender.address.port !== rinfo.port
    ) {
      counters.droppedForeignSource += 1;
      return;
    }
    const opened = sender.cryptor.open(msg, this.#scratch);
    if (!opened.ok) {
      counters.droppedDecrypt += 1;
      return;
    }
    sender.packetsFromClient += 1;
    counters.packetsIn += 1;
    counters.bytesIn += msg.length;
    if (sender.silenced) {
      counters.droppedSilenced += 1;
      return;
    }
    const { header } = opened;
    // Copies: a delayed send must not see the scratch buffer change under it.
    const payload = Buffer.from(
      this.#scratch.subarray(opened.payloadOffset, opened.payloadOffset + opened.payloadLength),
    );
    const init: RtpHeaderInit = {
      marker: header.marker,
      payloadType: header.payloadType,
      sequence: header.sequence,
      timestamp: header.timestamp,
      ssrc: header.ssrc,
      csrcs: header.csrcs,
      paddingSize: header.paddingSize,
      ...(header.extension
        ? {
            extension: {
              profile: header.extension.profile,
              body: Buffer.from(
                this.#scratch.subarray(
                  opened.extensionOffset,
                  opened.extensionOffset + opened.extensionLength,
                ),
              ),
            },
          }
        : {}),
    };
    for (const receiver of this.#byCall.get(sender.callId) ?? []) {
      if (receiver === sender || !receiver.cryptor || !receiver.address) continue;
      if (receiver.blocked) {
        counters.droppedBlocked += 1;
        continue;
      }
      if (receiver.deafened) {
        counters.droppedDeafened += 1;
        continue;
      }
      const decision = this.#impairment?.decide() ?? { drop: false as const, delayMs: 0 };
      if (decision.drop) {
        counters.droppedImpairment += 1;
        continue;
      }
      const send = (): void => {
        const cryptor = receiver.cryptor;
        const to = receiver.address;
        if (this.#closed || !cryptor || !to || this.#bySsrc.get(receiver.ssrc) !== receiver) return;
        // The nonce counter is taken when the packet leaves, so a held-back packet still carries a fresh one.
        const out = Buffer.alloc(cryptor.sealedLength(init, payload.length));
        const length = cryptor.seal(init, payload, out);
        this.#socket.send(out.subarray(0, length), to.port, to.address);
        receiver.packetsToClient += 1;
        counters.packetsForwarded += 1;
        counters.bytesForwarded += length;
      };
      if (decision.delayMs <= 0) {
        send();
      } else {
        const timer = setTimeout(() => {
          this.#timers.delete(timer);
          send();
        }, decision.delayMs);
        this.#timers.add(timer);
      }
    }
  }
}
