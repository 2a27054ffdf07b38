import { closeSync, openSync, readSync } from 'node:fs';

import { DaveProtocolSession, type MediaEngine } from 'sdkpp/media';
import { VoiceConnection, type LogWriter, type VoiceAudioSettings } from 'sdkpp/voice';
import { WavFileOutput, readWavFile } from '@sdkpp/protocol';
import type { EmulatorLog } from '../log.js';
import { randomToken } from '../random.js';
import type { CallParticipant, LeaveReason, VoiceCall, VoiceCalls } from '../voice/VoiceCalls.js';
import type { GuildVoiceJoins } from './guildVoiceJoins.js';

/** 20 ms of 48 kHz interleaved stereo. */
const FRAME_SAMPLES = 1920;
/** How often the user's pump runs: twice a frame, so the transport's ring never runs dry. */
const PUMP_MS = 10;
/** Frames kept queued in the transport ahead of its clock. */
const CAPTURE_AHEAD = 3;

/** What a {@link ChannelVoiceUser} is built from. */
export interface ChannelVoiceUserDeps {
  joins: GuildVoiceJoins;
  calls: VoiceCalls;
  engine: MediaEngine;
  log: EmulatorLog;
  /** The voice server's `host:port`. */
  endpoint: () => string;
}

/** Who joins where, and with what audio. */
export interface ChannelVoiceUserOptions {
  guildId: string;
  channelId: string;
  userId: string;
  /** A WAV file (16-bit PCM, any rate) the user speaks into the channel, once, from the moment audio flows. */
  play?: string;
  /** A WAV file (48 kHz stereo) of what the user hears, written as it plays and closed by `leave()`. */
  record?: string;
}

/**
 * A chat-app user in a guild voice channel, with audio: a main-gateway-less participant of the channel's
 * call (its session id is its own) that connects to the voice server as any client does, through the SDK's
 * voice connection (voice gateway, UDP, DAVE as a real MLS member), speaks a WAV file and records what it
 * hears. A move to another channel (Modify Guild Member, a region change) gives it a new token, and it
 * connects again.
 */
export class ChannelVoiceUser {
  readonly #d: ChannelVoiceUserDeps;
  readonly #o: ChannelVoiceUserOptions;
  readonly #sessionId = `voice-user-${randomToken(12)}`;
  readonly #speech: Int16Array | null;
  #played = 0;
  readonly #recording: WavFileOutput | null;
  #connection: VoiceConnection | undefined;
  #pump: NodeJS.Timeout | undefined;
  #left = false;
  readonly #onServer: (call: VoiceCall, participant: CallParticipant) => void;
  readonly #onLeft: (call: VoiceCall, participant: CallParticipant, reason: LeaveReason) => void;

  constructor(deps: ChannelVoiceUserDeps, options: ChannelVoiceUserOptions) {
    this.#d = deps;
    this.#o = options;
    // Read before joining: a bad file refuses the hook instead of leaving a silent user behind.
    this.#speech = options.play === undefined ? null : readWavFile(options.play);
    if (options.record !== undefined) refuseToOverwrite(options.record);
    this.#recording = options.record === undefined ? null : new WavFileOutput(options.record);
    this.#onServer = (call, participant) => {
      if (participant.sessionId === this.#sessionId && !this.#left) this.#connect(call, participant);
    };
    // Kicked, disconnected by a moderator, or the channel went away: the user is out, and so is the pump.
    this.#onLeft = (_call, participant, reason) => {
      if (participant.sessionId !== this.#sessionId || reason === 'moved' || reason === 'replaced') return;
      void this.#end();
    };
  }

  /** The user's id. */
  get userId(): string {
    return this.#o.userId;
  }

  /** The main gateway session id the user's voice state carries. */
  get sessionId(): string {
    return this.#sessionId;
  }

  /** Joins the channel and connects; throws a RangeError when the join is refused (why, in its message). */
  join(): void {
    const { calls, joins } = this.#d;
    calls.on('joined', this.#onServer);
    calls.on('renewed', this.#onServer);
    calls.on('left', this.#onLeft);
    const result = joins.join(this.#o.guildId, this.#o.channelId, this.#o.userId, this.#sessionId, {
      selfMute: false,
      selfDeaf: false,
    });
    if (!result.ok) {
      this.#detach();
      this.#recording?.close();
      throw new RangeError(
        `user ${this.#o.userId} cannot join channel ${this.#o.channelId}: ${result.message}`,
      );
    }
    this.#pump = setInterval(() => {
      this.#tick();
    }, PUMP_MS);
  }

  /** Whether the user is out of the channel (left, or put out by a moderator). */
  get ended(): boolean {
    return this.#left;
  }

  /** Leaves the channel, closes the voice connection and finishes the recording. */
  async leave(): Promise<void> {
    await this.#end();
    this.#d.joins.leaveSession(this.#o.guildId, this.#o.userId, this.#sessionId);
  }

  async #end(): Promise<void> {
    if (this.#left) return;
    this.#left = true;
    clearInterval(this.#pump);
    this.#detach();
    const connection = this.#connection;
    this.#connection = undefined;
    this.#drain(connection);
    await connection?.close();
    this.#recording?.close();
  }

  #detach(): void {
    this.#d.calls.off('joined', this.#onServer);
    this.#d.calls.off('renewed', this.#onServer);
    this.#d.calls.off('left', this.#onLeft);
  }

  #connect(call: VoiceCall, participant: CallParticipant): void {
    const previous = this.#connection;
    if (previous) void previous.close();
    const log = writer(this.#d.log, `voice user ${this.#o.userId}`);
    log.secret(participant.token);
    const settings: VoiceAudioSettings = {
      selfMute: false,
      selfDeaf: false,
      pushToTalk: false,
      pushToTalkActive: false,
      pushToTalkReleaseDelayMs: 0,
      // Everything the file holds is sent, silence included: a recording keeps its timing.
      vadThresholdDb: -100,
      captureGain: 1,
    };
    const connection = new VoiceConnection({
      serverId: call.serverId,
      channelId: call.channelId,
      userId: this.#o.userId,
      sessionId: this.#sessionId,
      token: participant.token,
      endpoint: this.#d.endpoint(),
      secure: false,
      engine: this.#d.engine,
      log,
      settings,
      dave: (o) =>
        new DaveProtocolSession({ selfUserId: o.selfUserId, channelId: o.channelId, logger: o.log }),
    });
    this.#connection = connection;
    connection.open();
  }

  #tick(): void {
    const connection = this.#connection;
    if (!connection) return;
    connection.tick();
    if (!connection.carriesAudio) return;
    const speech = this.#speech;
    if (speech && this.#played < speech.length) {
      while (connection.captureBacklog() < CAPTURE_AHEAD && this.#played < speech.length) {
        const frame = new Int16Array(FRAME_SAMPLES);
        frame.set(speech.subarray(this.#played, this.#played + FRAME_SAMPLES));
        connection.pushCapture(frame);
        this.#played += FRAME_SAMPLES;
      }
    } else {
      connection.captureIdle();
    }
    this.#drain(connection);
  }

  #drain(connection: VoiceConnection | undefined): void {
    const recording = this.#recording;
    if (!connection?.carriesAudio) return;
    connection.drainPlayout({
      push: (frame) => {
        recording?.write(frame);
      },
    });
  }
}

/**
 * A recording may replace an earlier recording, never another file: the path comes from a hook, the CLI or
 * the dashboard, and a slip must not truncate a file that is not a WAV.
 */
function refuseToOverwrite(file: string): void {
  let head: Buffer;
  try {
    const fd = openSync(file, 'r');
    try {
      head = Buffer.alloc(12);
      readSync(fd, head, 0, 12, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return; // Nothing there (or nothing readable): a new file.
  }
  if (head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WAVE') {
    throw new RangeError(`record: ${file} exists and is not a WAV file; choose another path`);
  }
}

/** The SDK's log writer over the emulator's log, under the `voice` area. */
function writer(log: EmulatorLog, tag: string, secrets = new Set<string>()): LogWriter {
  const line = (message: string): void => {
    let text = message;
    for (const secret of secrets) text = text.split(secret).join('[secret]');
    log.line('voice', `${tag}: ${text}`);
  };
  const self: LogWriter = {
    verbose: () => {
      // Per-packet detail stays out of the emulator's log.
    },
    info: line,
    warn: line,
    error: line,
    secret: (value) => {
      if (value) secrets.add(value);
    },
    child: (child) => writer(log, `${tag} [${child}]`, secrets),
  };
  return self;
}
