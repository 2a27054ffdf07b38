import { beforeAll, describe, expect, it } from 'vitest';

import {
  AUDIO_RESULTS,
  AudioResult,
  audioResultName,
  createMediaEngine,
  JitterFrameKind,
  MediaEngineError,
  NativeMediaEngine,
  OPUS_FRAME_SAMPLES,
  OPUS_MAX_PACKET_SIZE,
  OPUS_SILENCE_FRAME,
  SendAction,
  SILENCE_FRAMES_ON_STOP,
  type MediaEngine,
  type MediaEngineKind,
  type OpusEncoder,
} from '../../../packages/sdkpp/src/media/index.js';
import { loadNativeAddon } from '../../../packages/sdkpp/src/media/addon/loader.js';
import { constantFrame, fakeClock, rms, toneFrame } from './audioHelpers.js';
import { thrownBy } from './reference.js';

const ENGINES: { kind: MediaEngineKind }[] = [{ kind: 'native' }, { kind: 'js' }];
const TONE_RMS = 8000 / Math.SQRT2;

function encodeFrames(encoder: OpusEncoder, count: number, first = 0): Uint8Array[] {
  const packets: Uint8Array[] = [];
  const out = new Uint8Array(OPUS_MAX_PACKET_SIZE);
  for (let i = first; i < first + count; i++) {
    const size = encoder.encode(toneFrame(i), out);
    expect(size).toBeGreaterThan(0);
    packets.push(out.slice(0, size));
  }
  return packets;
}

function packet(...bytes: number[]): Uint8Array {
  return Uint8Array.from(bytes);
}

// One contract, two engines: every test runs against the native addon and the JS engine alike.
describe.each(ENGINES)('the audio pipeline ($kind engine)', ({ kind }) => {
  let engine: MediaEngine;
  beforeAll(() => {
    engine = createMediaEngine({ prefer: kind });
  });

  describe('engine and codec reporting', () => {
    it('names the codec in use', () => {
      if (kind === 'js') {
        expect(engine.info.codec.name).toBe('opus-wasm');
        expect(engine.info.codec.version).toMatch(/^@evan\/opus \d+\.\d+\.\d+ \(libopus, wasm\)$/);
      } else {
        // CI installs libopus-dev (.ci/run), so the addon is built with it.
        expect(engine.info.codec.name).toBe('libopus');
        expect(engine.info.codec.version).toMatch(/^libopus \d/);
      }
    });

    it('lists the same result codes', () => {
      expect(audioResultName(-AudioResult.InvalidPacket)).toBe('ERR_OPUS_INVALID_PACKET');
      expect(audioResultName(960)).toBe('OK');
      expect(AUDIO_RESULTS[AudioResult.TooManyUsers]).toBe('ERR_AUDIO_TOO_MANY_USERS');
    });
  });

  describe('Opus', () => {
    it('round-trips a tone with its level intact', () => {
      const encoder = engine.createOpusEncoder();
      const decoder = engine.createOpusDecoder();
      const pcm = new Int16Array(OPUS_FRAME_SAMPLES);
      const packets = encodeFrames(encoder, 50);
      for (const [index, bytes] of packets.entries()) {
        expect(decoder.decode(bytes, pcm)).toBe(960);
        // The codec's first frames ramp up; after them the level must match.
        if (index >= 5) expect(rms(pcm) / TONE_RMS).toBeGreaterThan(0.85);
        if (index >= 5) expect(rms(pcm) / TONE_RMS).toBeLessThan(1.15);
      }
      expect(encoder.results()[0]).toBe(50);
      expect(decoder.results()[0]).toBe(50);
    });

    it("decodes the other engine's packets (the same libopus bitstream)", () => {
      const other = createMediaEngine({ prefer: kind === 'js' ? 'native' : 'js' });
      const packets = encodeFrames(other.createOpusEncoder({ bitrate: 48000 }), 20);
      const decoder = engine.createOpusDecoder();
      const pcm = new Int16Array(OPUS_FRAME_SAMPLES);
      for (const bytes of packets) expect(decoder.decode(bytes, pcm)).toBe(960);
      expect(rms(pcm) / TONE_RMS).toBeGreaterThan(0.85);
    });

    it('recovers a dropped packet from the next one with FEC, and conceals one without', () => {
      const packets = encodeFrames(engine.createOpusEncoder({ packetLossPercent: 20 }), 30);
      const withFec = engine.createOpusDecoder();
      const concealing = engine.createOpusDecoder();
      const pcm = new Int16Array(OPUS_FRAME_SAMPLES);
      for (let i = 0; i < 20; i++) {
        withFec.decode(packets[i] as Uint8Array, pcm);
        concealing.decode(packets[i] as Uint8Array, pcm);
      }
      // Packet 20 is lost.
      const recovered = new Int16Array(OPUS_FRAME_SAMPLES);
      expect(withFec.decode(packets[21] as Uint8Array, recovered, true)).toBe(960);
      const concealed = new Int16Array(OPUS_FRAME_SAMPLES);
      expect(concealing.conceal(concealed)).toBe(960);

      expect(rms(recovered) / TONE_RMS).toBeGreaterThan(0.8);
      expect(rms(recovered) / TONE_RMS).toBeLessThan(1.2);
      // Concealment fades the tone out rather than playing silence or a click.
      expect(rms(concealed)).toBeGreaterThan(100);
      expect(rms(concealed)).toBeLessThan(rms(recovered));
      // Both decoders go on with packet 21 itself.
      expect(withFec.decode(packets[21] as Uint8Array, pcm)).toBe(960);
      expect(concealing.decode(packets[21] as Uint8Array, pcm)).toBe(960);
    });

    it('returns codes for malformed packets and bad buffers, and counts them', () => {
      const decoder = engine.createOpusDecoder();
      const pcm = new Int16Array(OPUS_FRAME_SAMPLES);
      const invalid = -AudioResult.InvalidPacket;
      expect(decoder.decode(packet(), pcm)).toBe(invalid); // empty: a loss is conceal(), never implied
      expect(decoder.decode(packet(0x03), pcm)).toBe(invalid); // code 3 without its frame count byte
      expect(decoder.decode(packet(0x03, 0x00), pcm)).toBe(invalid); // code 3 with zero frames
      expect(decoder.decode(packet(0x01, 1, 2, 3), pcm)).toBe(invalid); // code 1: two halves of odd length
      expect(decoder.decode(packet(0x02, 200, 1), pcm)).toBe(invalid); // code 2: first length past the end
      expect(decoder.decode(new Uint8Array(5000), pcm)).toBe(invalid);
      const good = encodeFrames(engine.createOpusEncoder(), 1)[0] as Uint8Array;
      expect(decoder.decode(good, new Int16Array(100))).toBe(-AudioResult.BufferTooSmall);
      expect(decoder.conceal(new Int16Array(100))).toBe(-AudioResult.BufferTooSmall);
      expect(decoder.decode(good, pcm)).toBe(960);
      const counts = decoder.results();
      expect(counts[AudioResult.InvalidPacket]).toBe(6);
      expect(counts[AudioResult.BufferTooSmall]).toBe(2);
      expect(counts[AudioResult.Ok]).toBe(1);

      const encoder = engine.createOpusEncoder();
      expect(encoder.encode(new Int16Array(100), new Uint8Array(OPUS_MAX_PACKET_SIZE))).toBe(
        -AudioResult.BadFrameSize,
      );
      expect(encoder.encode(toneFrame(0), new Uint8Array(0))).toBe(-AudioResult.BufferTooSmall);
    });

    it('decodes the silence frame to silence', () => {
      const pcm = new Int16Array(OPUS_FRAME_SAMPLES);
      expect([...OPUS_SILENCE_FRAME]).toEqual([0xf8, 0xff, 0xfe]);
      expect(engine.createOpusDecoder().decode(OPUS_SILENCE_FRAME, pcm)).toBe(960);
      expect(rms(pcm)).toBeLessThan(1);
    });

    it('refuses settings out of range with ERR_AUDIO_BAD_ARGUMENT', () => {
      const error = thrownBy(() => engine.createOpusEncoder({ bitrate: 100 })) as MediaEngineError;
      expect(error).toBeInstanceOf(MediaEngineError);
      expect(error.code).toBe('ERR_AUDIO_BAD_ARGUMENT');
      const encoder = engine.createOpusEncoder();
      expect((thrownBy(() => encoder.setPacketLossPercent(101)) as MediaEngineError).code).toBe(
        'ERR_AUDIO_BAD_ARGUMENT',
      );
      encoder.setBitrate(32000);
      expect(
        (
          thrownBy(() =>
            encoder.encode(new Float32Array(1920) as never, new Uint8Array(9)),
          ) as MediaEngineError
        ).code,
      ).toBe('ERR_INVALID_ARG_TYPE');
    });
  });

  describe('jitter buffer', () => {
    const out = new Uint8Array(OPUS_MAX_PACKET_SIZE);
    const payload = (sequence: number): Uint8Array => packet(sequence & 0xff, 0xaa, sequence >> 8);

    function popAll(buffer: ReturnType<MediaEngine['createJitterBuffer']>, ticks: number): string[] {
      const seen: string[] = [];
      for (let i = 0; i < ticks; i++) {
        const frame = buffer.pop(out);
        const name = ['empty', 'packet', 'fec', 'conceal'][frame.kind] ?? '?';
        seen.push(frame.kind === JitterFrameKind.Empty ? name : `${name}:${frame.sequence}`);
        if (frame.kind === JitterFrameKind.Packet)
          expect([...out.subarray(0, frame.size)]).toEqual([...payload(frame.sequence)]);
        if (frame.kind === JitterFrameKind.Fec)
          expect([...out.subarray(0, frame.size)]).toEqual([...payload(frame.sequence + 1)]);
      }
      return seen;
    }

    it('plays packets that arrive out of order in order', () => {
      const buffer = engine.createJitterBuffer();
      for (const [i, sequence] of [100, 102, 101].entries()) {
        expect(buffer.push(sequence, sequence * 960, payload(sequence), i * 20)).toBe(0);
      }
      expect(popAll(buffer, 3)).toEqual(['packet:100', 'packet:101', 'packet:102']);
    });

    it('refuses late, duplicate and oversized packets with codes', () => {
      const buffer = engine.createJitterBuffer();
      buffer.push(10, 0, payload(10), 0);
      buffer.push(11, 960, payload(11), 20);
      expect(buffer.push(11, 960, payload(11), 21)).toBe(-AudioResult.DuplicatePacket);
      expect(popAll(buffer, 2)).toEqual(['packet:10', 'packet:11']);
      expect(buffer.push(10, 0, payload(10), 60)).toBe(-AudioResult.LatePacket);
      expect(buffer.push(12, 0, new Uint8Array(OPUS_MAX_PACKET_SIZE + 1), 60)).toBe(
        -AudioResult.PacketTooLarge,
      );
      expect(buffer.push(12, 0, new Uint8Array(0), 60)).toBe(-AudioResult.InvalidPacket);
      expect(buffer.status()).toMatchObject({ late: 1, duplicate: 1, invalid: 2, packets: 2 });
    });

    it('turns a single loss into FEC from the next packet and a double loss into concealment', () => {
      const buffer = engine.createJitterBuffer();
      for (const [i, sequence] of [20, 22, 25].entries())
        buffer.push(sequence, sequence * 960, payload(sequence), i * 20);
      expect(popAll(buffer, 6)).toEqual([
        'packet:20',
        'fec:21',
        'packet:22',
        'conceal:23',
        'fec:24',
        'packet:25',
      ]);
      expect(buffer.status()).toMatchObject({ fec: 2, concealed: 1, packets: 3 });
    });

    it('conceals a few ticks when the stream vanishes, then pauses and takes the next spurt whole', () => {
      const buffer = engine.createJitterBuffer();
      buffer.push(7, 7 * 960, payload(7), 0);
      // Nothing after 7 is here, so 8 is waited for (late, not lost) while the ticks are concealed.
      expect(popAll(buffer, 8)).toEqual([
        'packet:7',
        'conceal:8',
        'conceal:8',
        'conceal:8',
        'conceal:8',
        'conceal:8',
        'empty',
        'empty',
      ]);
      expect(buffer.push(7, 7 * 960, payload(7), 200)).toBe(-AudioResult.LatePacket);
      // Senders number packets without gaps across a pause: the next spurt starts at 8, all of it played.
      for (const sequence of [8, 9, 10]) {
        expect(buffer.push(sequence, sequence * 960, payload(sequence), 33 * 20 + sequence)).toBe(0);
      }
      expect(popAll(buffer, 3)).toEqual(['packet:8', 'packet:9', 'packet:10']);
      expect(buffer.status()).toMatchObject({ pauses: 1, late: 1, concealed: 5, stretched: 5 });
    });

    it('waits for a late packet instead of throwing it away, then takes the added delay back', () => {
      const buffer = engine.createJitterBuffer();
      buffer.push(1, 960, payload(1), 0);
      expect(popAll(buffer, 1)).toEqual(['packet:1']);
      // A stall: packet 2 is 40 ms late, then 2, 3, 4, 5 arrive together.
      expect(popAll(buffer, 2)).toEqual(['conceal:2', 'conceal:2']);
      for (const sequence of [2, 3, 4, 5, 6]) buffer.push(sequence, sequence * 960, payload(sequence), 60);
      // Every packet plays (none refused as late): a burst right after a stall is not excess delay.
      expect(popAll(buffer, 5)).toEqual(['packet:2', 'packet:3', 'packet:4', 'packet:5', 'packet:6']);
      expect(buffer.status()).toMatchObject({ late: 0, stretched: 2, dropped: 0 });
    });

    it('holds the delay a late packet needed for 10 s, so the next stall as long plays through, then lets it go', () => {
      const buffer = engine.createJitterBuffer();
      buffer.push(1, 960, payload(1), 0);
      expect(popAll(buffer, 1)).toEqual(['packet:1']);
      // A stall: packet 2 is 40 ms late. The delay it needed (two ticks, plus one) becomes the target.
      expect(popAll(buffer, 2)).toEqual(['conceal:2', 'conceal:2']);
      expect(buffer.status().targetDelayFrames).toBe(1);
      for (const sequence of [2, 3, 4]) buffer.push(sequence, sequence * 960, payload(sequence), 60);
      expect(popAll(buffer, 1)).toEqual(['packet:2']);
      expect(buffer.status().targetDelayFrames).toBe(3);
      let next = 5;
      const steady = (ticks: number): string[] => {
        const played: string[] = [];
        for (let tick = 0; tick < ticks; tick++) {
          buffer.push(next, next * 960, payload(next), 20 * next);
          next++;
          played.push(...popAll(buffer, 1));
        }
        return played;
      };
      expect(steady(50).every((frame) => frame.startsWith('packet:'))).toBe(true);
      // The same stall again: two ticks without a packet play what the held delay kept.
      expect(popAll(buffer, 2)).toEqual([`packet:${next - 2}`, `packet:${next - 1}`]);
      for (const sequence of [next, next + 1])
        buffer.push(sequence, sequence * 960, payload(sequence), 20 * next + 40);
      next += 2;
      expect(steady(100).every((frame) => frame.startsWith('packet:'))).toBe(true);
      expect(buffer.status()).toMatchObject({ stretched: 2, concealed: 2, dropped: 0, targetDelayFrames: 3 });
      // 10 s after the late packet, the target is the jitter's again.
      steady(350);
      expect(buffer.status().targetDelayFrames).toBe(1);
    });

    it('drops frames only when too much delay lasts, not for one burst', () => {
      const buffer = engine.createJitterBuffer();
      // A steady stream that arrives 6 frames ahead of playout: the excess lasts, so frames are dropped.
      for (let i = 0; i < 7; i++) buffer.push(i, i * 960, payload(i), 0);
      let next = 7;
      for (let tick = 0; tick < 20; tick++) {
        buffer.push(next, next * 960, payload(next), 20 * (tick + 1));
        next++;
        buffer.pop(out);
      }
      expect(buffer.status().dropped).toBeGreaterThan(0);
      expect(buffer.status().buffered).toBeLessThanOrEqual(buffer.status().targetDelayFrames + 3);
    });

    it('pauses right after the sender’s silence frames, without concealing, and resumes at the next sequence number', () => {
      const buffer = engine.createJitterBuffer();
      buffer.push(50, 50 * 960, payload(50), 0);
      buffer.push(51, 51 * 960, OPUS_SILENCE_FRAME, 20);
      expect(popAll(buffer, 1)).toEqual(['packet:50']);
      const silence = buffer.pop(out);
      expect(silence).toMatchObject({ kind: JitterFrameKind.Packet, sequence: 51, size: 3 });
      // The sender said it stopped: no concealment (it would invent sound), just nothing.
      for (let i = 0; i < 10; i++) expect(buffer.pop(out).kind).toBe(JitterFrameKind.Empty);
      // 400 ms later the next spurt goes on from 52, and its arrival gap is not taken for jitter.
      buffer.push(52, 52 * 960, payload(52), 420);
      buffer.push(53, 53 * 960, payload(53), 440);
      expect(buffer.status().jitterMs).toBeLessThan(1);
      expect(popAll(buffer, 2)).toEqual(['packet:52', 'packet:53']);
      expect(buffer.status()).toMatchObject({ pauses: 1, late: 0, concealed: 0 });
    });

    it('follows the sequence number across its wrap-around', () => {
      const buffer = engine.createJitterBuffer();
      buffer.push(65535, 0, payload(65535), 0);
      buffer.push(0, 960, payload(0), 20);
      expect(popAll(buffer, 2)).toEqual(['packet:65535', 'packet:0']);
    });

    it('adapts its target delay to the measured jitter', () => {
      const steady = engine.createJitterBuffer();
      const jittery = engine.createJitterBuffer({ maxDelayFrames: 8 });
      for (let i = 0; i < 100; i++) {
        steady.push(i, i * 960, payload(i), i * 20);
        jittery.push(i, i * 960, payload(i), i * 20 + (i % 2 === 0 ? 0 : 45));
        steady.pop(out);
        jittery.pop(out);
      }
      expect(steady.status().targetDelayFrames).toBe(1);
      expect(steady.status().jitterMs).toBeLessThan(0.001);
      expect(jittery.status().jitterMs).toBeGreaterThan(30);
      expect(jittery.status().targetDelayFrames).toBeGreaterThanOrEqual(4);
      expect(jittery.status().targetDelayFrames).toBeLessThanOrEqual(8);
    });

    it('keeps one frame of target delay through a few milliseconds of scheduling noise', () => {
      // Arrivals 0-4 ms off their 20 ms grid, as timers and a loaded machine make them: one frame already
      // absorbs that, and a second would add 20 ms to every talk spurt's start for nothing.
      const noisy = engine.createJitterBuffer();
      const wobble = [0, 3, 1, 4, 0, 2, 4, 1];
      for (let i = 0; i < 200; i++) {
        noisy.push(i, i * 960, payload(i), i * 20 + (wobble[i % wobble.length] as number));
        noisy.pop(out);
      }
      expect(noisy.status().jitterMs).toBeGreaterThan(1);
      expect(noisy.status().targetDelayFrames).toBe(1);
    });

    it('waits for its target delay before playing', () => {
      const buffer = engine.createJitterBuffer({ minDelayFrames: 3 });
      buffer.push(1, 960, payload(1), 0);
      buffer.push(2, 1920, payload(2), 20);
      expect(popAll(buffer, 1)).toEqual(['empty']);
      buffer.push(3, 2880, payload(3), 40);
      expect(popAll(buffer, 3)).toEqual(['packet:1', 'packet:2', 'packet:3']);
    });
  });

  describe('mixer', () => {
    const SPEAKERS = 25;
    const keys = Uint32Array.from({ length: SPEAKERS }, (_, i) => 1000 + i);

    function stack(frames: Int16Array[]): Int16Array {
      const all = new Int16Array(frames.length * OPUS_FRAME_SAMPLES);
      frames.forEach((frame, i) => all.set(frame, i * OPUS_FRAME_SAMPLES));
      return all;
    }

    it('mixes 25 speakers with per-user gains', () => {
      const processor = engine.createAudioProcessor();
      processor.setUserGain(1000, 2);
      processor.setUserGain(1001, 0);
      processor.setUserGain(1002, 0.5);
      const out = new Int16Array(OPUS_FRAME_SAMPLES);
      const limited = processor.mix(
        stack(keys.length ? [...keys].map(() => constantFrame(100)) : []),
        keys,
        SPEAKERS,
        out,
      );
      // 22 speakers at 1, one at 2, one muted, one at 0.5.
      expect(limited).toBe(0);
      expect(new Set(out)).toEqual(new Set([100 * 22 + 200 + 0 + 50]));
      const fewer = processor.mix(stack([constantFrame(-300)]), keys, 1, out);
      expect(fewer).toBe(0);
      expect(out[0]).toBe(-600);
    });

    it('keeps 25 loud speakers within 16 bits with a soft limiter, not wrap-around or hard clipping', () => {
      const processor = engine.createAudioProcessor();
      const frames = stack(Array.from({ length: SPEAKERS }, () => toneFrame(3, 440, 12000)));
      const out = new Int16Array(OPUS_FRAME_SAMPLES);
      const limited = processor.mix(frames, keys, SPEAKERS, out);
      expect(limited).toBeGreaterThan(0);
      const tone = toneFrame(3, 440, 12000);
      let saturated = 0;
      for (let i = 0; i < OPUS_FRAME_SAMPLES; i++) {
        const sum = (tone[i] ?? 0) * SPEAKERS;
        const sample = out[i] ?? 0;
        expect(Math.sign(sample)).toBe(Math.sign(sum)); // no wrap-around
        expect(Math.abs(sample)).toBeLessThanOrEqual(32767);
        const magnitude = Math.abs(sum);
        const expected =
          magnitude <= 24576 ? magnitude : 24576 + (8191 * (magnitude - 24576)) / (magnitude - 24576 + 8191);
        expect(Math.abs(Math.abs(sample) - expected)).toBeLessThanOrEqual(1);
        if (Math.abs(sample) === 32767) saturated++;
      }
      // A hard clipper would flatten most of the wave at full scale; the limiter keeps its shape.
      expect(saturated).toBeLessThan(OPUS_FRAME_SAMPLES / 10);
    });

    it('rounds each mixed sample below the knee to the nearest integer, never truncating', () => {
      const processor = engine.createAudioProcessor();
      processor.setUserGain(1000, 0.37);
      processor.setUserGain(1001, 1.61);
      let seed = 7;
      const random = (): number => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return seed / 2 ** 31;
      };
      const frames = [0, 1].map(() =>
        Int16Array.from({ length: OPUS_FRAME_SAMPLES }, () => Math.round((random() - 0.5) * 12000)),
      );
      const out = new Int16Array(OPUS_FRAME_SAMPLES);
      expect(processor.mix(stack(frames), keys, 2, out)).toBe(0);
      let worst = 0;
      for (let i = 0; i < OPUS_FRAME_SAMPLES; i++) {
        const exact = (frames[0]?.[i] ?? 0) * 0.37 + (frames[1]?.[i] ?? 0) * 1.61;
        worst = Math.max(worst, Math.abs((out[i] ?? 0) - exact));
      }
      expect(worst).toBeLessThanOrEqual(0.501); // float32 sums: a hair over a half at most
      expect(worst).toBeGreaterThan(0.4); // and the samples do land between integers
    });

    it('is silent when deafened', () => {
      const processor = engine.createAudioProcessor();
      const out = new Int16Array(OPUS_FRAME_SAMPLES).fill(7);
      processor.selfDeaf = true;
      processor.mix(stack([toneFrame(1)]), keys, 1, out);
      expect(rms(out)).toBe(0);
      processor.selfDeaf = false;
      processor.mix(stack([toneFrame(1)]), keys, 1, out);
      expect(rms(out)).toBeGreaterThan(1000);
    });
  });

  describe('capture: gain, VAD, push-to-talk, mute and deafen', () => {
    it('applies capture gain in place', () => {
      const processor = engine.createAudioProcessor();
      const frame = toneFrame(0, 440, 1000);
      processor.processCapture(frame);
      const before = processor.lastLevelDb;
      processor.captureGain = 2;
      const doubled = toneFrame(0, 440, 1000);
      processor.processCapture(doubled);
      expect(doubled[100]).toBe(2 * (frame[100] ?? 0));
      expect(processor.lastLevelDb - before).toBeCloseTo(6.02, 1);
      expect((thrownBy(() => (processor.captureGain = -1)) as MediaEngineError).code).toBe(
        'ERR_AUDIO_BAD_ARGUMENT',
      );
    });

    it('detects voice at the settable threshold (energy in dBFS)', () => {
      const processor = engine.createAudioProcessor();
      // A sine of amplitude 1000: RMS 707, 20·log10(707 / 32768) = -33.3 dBFS.
      expect(processor.processCapture(toneFrame(0, 440, 1000))).toBe(SendAction.Voice);
      expect(processor.lastLevelDb).toBeCloseTo(-33.3, 1);
      processor.vadThresholdDb = -30;
      expect(processor.processCapture(toneFrame(1, 440, 1000))).toBe(SendAction.Silence);
      processor.vadThresholdDb = -34;
      expect(processor.processCapture(toneFrame(2, 440, 1000))).toBe(SendAction.Voice);
      processor.processCapture(constantFrame(0));
      expect(processor.lastLevelDb).toBe(-100);
    });

    it('sends five silence frames when transmission stops, then nothing', () => {
      const processor = engine.createAudioProcessor();
      const actions: number[] = [];
      for (let i = 0; i < 3; i++) actions.push(processor.processCapture(toneFrame(i)));
      for (let i = 0; i < 8; i++) actions.push(processor.processCapture(constantFrame(0)));
      expect(actions).toEqual([
        1,
        1,
        1,
        ...Array<number>(SILENCE_FRAMES_ON_STOP).fill(SendAction.Silence),
        0,
        0,
        0,
      ]);
      // Speech that resumes during the silence frames cuts them short.
      processor.processCapture(toneFrame(0));
      processor.processCapture(constantFrame(0));
      expect(processor.processCapture(toneFrame(1))).toBe(SendAction.Voice);
    });

    it('holds push-to-talk for the release delay on the injected clock', () => {
      const clock = fakeClock();
      const processor = engine.createAudioProcessor({ now: clock.now });
      processor.mode = 'push-to-talk';
      processor.pushToTalkReleaseDelayMs = 200;
      // Loud audio without the key sends nothing.
      expect(processor.processCapture(toneFrame(0))).toBe(SendAction.Nothing);
      processor.setPushToTalk(true);
      // Quiet audio with the key held is sent: push-to-talk ignores the VAD.
      expect(processor.processCapture(constantFrame(0))).toBe(SendAction.Voice);
      clock.advance(100);
      processor.setPushToTalk(false);
      clock.advance(199);
      expect(processor.processCapture(toneFrame(1))).toBe(SendAction.Voice);
      clock.advance(1);
      expect(processor.processCapture(toneFrame(2))).toBe(SendAction.Silence);
      clock.advance(1000);
      processor.setPushToTalk(true);
      expect(processor.processCapture(toneFrame(3))).toBe(SendAction.Voice);
    });

    it('sends nothing while self-muted or deafened, after the five silence frames', () => {
      const processor = engine.createAudioProcessor();
      expect(processor.processCapture(toneFrame(0))).toBe(SendAction.Voice);
      processor.selfMute = true;
      const muted = Array.from({ length: 7 }, (_, i) => processor.processCapture(toneFrame(i + 1)));
      expect(muted).toEqual([2, 2, 2, 2, 2, 0, 0]);
      processor.selfMute = false;
      expect(processor.processCapture(toneFrame(9))).toBe(SendAction.Voice);
      processor.selfDeaf = true;
      expect(processor.processCapture(toneFrame(10))).toBe(SendAction.Silence);
      // Deafen implies not sending, without changing the mute setting itself.
      expect(processor.selfMute).toBe(false);
    });
  });
});

describe('a native addon built without libopus', () => {
  it('takes its codec from the JS side and says so', () => {
    const loaded = loadNativeAddon();
    if (!loaded.ok) throw new Error(loaded.reason);
    const addon = loaded.addon;
    const withoutOpus = new NativeMediaEngine({
      ...addon,
      engineInfo: () => ({ ...addon.engineInfo(), opus: null }),
    });
    expect(withoutOpus.info.engine).toBe('native');
    expect(withoutOpus.info.codec.name).toBe('opus-wasm');
    const packets = encodeFrames(withoutOpus.createOpusEncoder(), 10);
    const pcm = new Int16Array(OPUS_FRAME_SAMPLES);
    const decoder = withoutOpus.createOpusDecoder();
    for (const bytes of packets) expect(decoder.decode(bytes, pcm)).toBe(960);
    expect(rms(pcm) / TONE_RMS).toBeGreaterThan(0.85);
  });
});
