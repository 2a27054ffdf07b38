import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, linkSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { release, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import {
  createMediaEngine,
  loadNativeAddon,
  VOICE_FRAME_SAMPLES,
  type MediaEngine,
  type MediaEngineKind,
  type VoiceTransport,
} from '../../../packages/sdkpp/src/media/index.js';
import { rms, toneFrame } from './audioHelpers.js';
import { sleep, VoicePeer, waitFor } from './voicePeer.js';

const ENGINES: { kind: MediaEngineKind }[] = [{ kind: 'native' }, { kind: 'js' }];

/**
 * The priority a native transport reports in a process running as uid 65534 (nobody). The probe runs from a
 * copy of the loaded addon in a fresh folder under the system's temp directory, readable by anyone: the
 * checkout itself may sit where nobody cannot read (a clone under /root, or in a `mktemp -d` folder).
 */
function priorityAsNobody(): string {
  const loaded = loadNativeAddon();
  if (!loaded.ok) return loaded.reason;
  const dir = mkdtempSync(join(tmpdir(), 'sdkpp-priority-'));
  try {
    chmodSync(dir, 0o755);
    copyFileSync(loaded.path, join(dir, 'addon.node'));
    chmodSync(join(dir, 'addon.node'), 0o644);
    const script =
      "const addon = require('./addon.node');" +
      'const t = new addon.VoiceTransport(' +
      "{ serverHost: '127.0.0.1', serverPort: 9, ssrc: 1, discover: false });" +
      't.start(); setTimeout(() => { console.log(JSON.stringify(t.stats().priority)); t.stop(); }, 100);';
    writeFileSync(join(dir, 'probe.cjs'), script, { mode: 0o644 });
    // The Node itself must be reachable by nobody too: the suite's Node 24 comes from the cross cache under
    // root's home (scripts/test.mjs), which nobody cannot enter. A hard link (or a copy across file systems)
    // in the same folder is.
    const node = join(dir, 'node');
    try {
      linkSync(process.execPath, node);
    } catch {
      copyFileSync(process.execPath, node);
    }
    chmodSync(node, 0o755);
    const run = spawnSync(node, [join(dir, 'probe.cjs')], {
      cwd: dir,
      uid: 65534,
      gid: 65534,
      encoding: 'utf8',
      timeout: 30_000,
    });
    if (run.error) return `the probe did not run: ${run.error.message}`;
    return `${run.stdout.trim()}${run.stderr}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether this kernel takes a SCHED_OTHER time slice from anyone (Linux 6.12, EEVDF custom slices). */
function shortSlicesAllowed(): boolean {
  const [major = 0, minor = 0] = release().split(/[.-]/).map(Number);
  return process.platform === 'linux' && (major > 6 || (major === 6 && minor >= 12));
}
const MODE = 'aead_xchacha20_poly1305_rtpsize';
const KEY = new Uint8Array(32).fill(7);
const TONE_RMS = 8000 / Math.SQRT2;
const SSRC_A = 1111;
const SSRC_B = 2222;
const SSRC_C = 3333;

/**
 * Pushes `frames` tone frames, keeping the send ring (320 ms) topped up so that a slow test runner does
 * not let it run dry mid-stream (which would, correctly, send the silence tail early).
 */
async function feedTone(transport: VoiceTransport, frames: number): Promise<void> {
  let sent = 0;
  while (sent < frames) {
    const batch = Math.min(16, frames - sent);
    const pcm = new Int16Array(batch * VOICE_FRAME_SAMPLES);
    for (let i = 0; i < batch; i++) pcm.set(toneFrame(sent + i), i * VOICE_FRAME_SAMPLES);
    sent += transport.pushPcm(pcm);
    await sleep(10);
  }
}

/** Drains every mixed frame; returns each frame's RMS. */
function drain(transport: VoiceTransport): number[] {
  const out = new Int16Array(8 * VOICE_FRAME_SAMPLES);
  const levels: number[] = [];
  for (let n = transport.pullPcm(out); n > 0; n = transport.pullPcm(out)) {
    for (let i = 0; i < n; i++) {
      levels.push(rms(out.subarray(i * VOICE_FRAME_SAMPLES, (i + 1) * VOICE_FRAME_SAMPLES)));
    }
  }
  return levels;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

// One contract, two engines: the native transport thread and the JS engine's timer-driven twin, both over
// real loopback UDP through a forwarding peer.
describe.each(ENGINES)('the voice transport ($kind engine)', ({ kind }) => {
  let engine: MediaEngine;
  let peer: VoicePeer | undefined;
  const open: VoiceTransport[] = [];

  beforeAll(() => {
    engine = createMediaEngine({ prefer: kind });
  });

  async function connect(ssrc: number): Promise<{ transport: VoiceTransport; port: number }> {
    if (!peer) throw new Error('start the peer first');
    const transport = engine.createVoiceTransport({
      serverHost: '127.0.0.1',
      serverPort: peer.port,
      bindHost: '127.0.0.1',
      ssrc,
      discoveryTimeoutMs: 500,
    });
    open.push(transport);
    transport.setTransportKey(MODE, KEY);
    const port = await transport.start();
    await waitFor(() => transport.state() === 'running', 'discovery');
    return { transport, port };
  }

  afterEach(async () => {
    for (const transport of open.splice(0)) await transport.stop();
    await peer?.close();
    peer = undefined;
  });

  /** A transport (not started) sending to a fresh VoicePeer on loopback, closed after the test. */
  async function transportToPeer(): Promise<VoiceTransport> {
    peer = new VoicePeer();
    await peer.listen();
    const transport = engine.createVoiceTransport({
      serverHost: '127.0.0.1',
      serverPort: peer.port,
      ssrc: SSRC_A,
      discover: false,
    });
    open.push(transport);
    return transport;
  }

  it('discovers its address through the 74-byte exchange', async () => {
    peer = new VoicePeer();
    await peer.listen();
    const { transport, port } = await connect(SSRC_A);
    expect(transport.discovered()).toEqual({ address: '127.0.0.1', port });
    expect(transport.stats().discoveryAttempts).toBe(1);
  });

  it('reports discovery-failed when nobody answers, after every attempt', async () => {
    peer = new VoicePeer();
    await peer.listen();
    await peer.close(); // the port is now closed: no answer will come
    const transport = engine.createVoiceTransport({
      serverHost: '127.0.0.1',
      serverPort: peer.port,
      bindHost: '127.0.0.1',
      ssrc: SSRC_A,
      discoveryTimeoutMs: 50,
      discoveryAttempts: 2,
    });
    open.push(transport);
    await transport.start();
    await waitFor(() => transport.state() === 'discovery-failed', 'discovery to fail');
    expect(transport.stats().discoveryAttempts).toBe(2);
    expect(transport.discovered()).toBeNull();
    peer = new VoicePeer(); // afterEach closes one
    await peer.listen();
  });

  it('stops promptly while discovery is still waiting for an answer', async () => {
    peer = new VoicePeer();
    await peer.listen();
    await peer.close(); // nobody answers
    const transport = engine.createVoiceTransport({
      serverHost: '127.0.0.1',
      serverPort: peer.port,
      bindHost: '127.0.0.1',
      ssrc: SSRC_A,
      discoveryTimeoutMs: 60000,
    });
    open.push(transport);
    await transport.start();
    expect(transport.state()).toBe('discovering');
    await sleep(30);
    await transport.stop(); // a stop that waited out the 60 s timeout would time the test out
    expect(transport.state()).toBe('stopped');
    peer = new VoicePeer(); // afterEach closes one
    await peer.listen();
  });

  it('carries a tone from A to B, then sends five silence frames once and goes quiet', async () => {
    peer = new VoicePeer();
    await peer.listen();
    const a = await connect(SSRC_A);
    const b = await connect(SSRC_B);
    const levels: number[] = [];
    await feedTone(a.transport, 30);
    await waitFor(() => a.transport.stats().silenceFramesSent === 5, 'the silence frames');
    await waitFor(() => {
      levels.push(...drain(b.transport));
      return b.transport.stats().framesMixed >= 30;
    }, 'the mixed frames');
    const sentA = a.transport.stats();
    expect(sentA.voiceFramesSent).toBe(30);
    expect(sentA.packetsSent).toBe(35);
    // After the tail, nothing more is sent.
    await sleep(200);
    expect(a.transport.stats().packetsSent).toBe(35);
    expect(peer.received.get(a.port)?.length).toBe(35);
    // B heard A: the loud frames are the tone, at close to its level.
    const loud = levels.filter((level) => level > TONE_RMS / 4);
    expect(loud.length).toBeGreaterThanOrEqual(20);
    expect(median(loud)).toBeGreaterThan(TONE_RMS * 0.8);
    expect(median(loud)).toBeLessThan(TONE_RMS * 1.2);
    const statsB = b.transport.stats();
    expect(statsB.droppedOpenFailed + statsB.droppedDaveFailed + statsB.droppedDecodeFailed).toBe(0);
    if (kind === 'native') expect(statsB.allocationsInTicks).toBe(0);
  });

  it('calls onEvent on this thread when a transmission begins and when it ends, and not while it goes on', async () => {
    peer = new VoicePeer();
    await peer.listen();
    const seen: { voice: number; silence: number }[] = [];
    const transport = engine.createVoiceTransport({
      serverHost: '127.0.0.1',
      serverPort: peer.port,
      bindHost: '127.0.0.1',
      ssrc: SSRC_A,
      discover: false,
      onEvent: () => {
        const stats = transport.stats();
        seen.push({ voice: stats.voiceFramesSent, silence: stats.silenceFramesSent });
      },
    });
    open.push(transport);
    transport.setTransportKey(MODE, KEY);
    await transport.start();
    await sleep(100);
    expect(seen).toEqual([]); // nothing sent, nothing to tell
    await feedTone(transport, 30);
    await waitFor(() => transport.stats().silenceFramesSent === 5, 'the silence frames');
    await sleep(100);
    // Two calls: the first voice frame went out (its count then is 1, or a few more by the time the call
    // runs), and the fifth silence frame.
    expect(seen).toHaveLength(2);
    expect(seen[0]?.voice).toBeGreaterThanOrEqual(1);
    expect(seen[0]?.voice).toBeLessThan(10);
    expect(seen[1]).toEqual({ voice: 30, silence: 5 });
    // A second transmission: two more.
    await feedTone(transport, 5);
    await waitFor(() => transport.stats().silenceFramesSent === 10, 'the second silence frames');
    await sleep(100);
    expect(seen).toHaveLength(4);
    expect(seen[3]).toEqual({ voice: 35, silence: 10 });
  });

  it('refuses an onEvent that is not a function', () => {
    const make = (): VoiceTransport =>
      engine.createVoiceTransport({
        serverHost: '127.0.0.1',
        serverPort: 9,
        ssrc: SSRC_A,
        discover: false,
        onEvent: 'soon' as unknown as () => void,
      });
    expect(make).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
  });

  it('carries DAVE-encrypted frames when the receiver has the sender key, and counts them when not', async () => {
    peer = new VoicePeer();
    await peer.listen();
    const a = await connect(SSRC_A);
    const b = await connect(SSRC_B);
    const secret = new Uint8Array(16).fill(3);
    a.transport.setDaveSendKey(secret);
    // B has not heard of A's key and passthrough is on: encrypted frames are refused and counted.
    await feedTone(a.transport, 6);
    await waitFor(() => b.transport.stats().droppedDaveFailed >= 6, 'refused DAVE frames');
    expect(b.transport.stats().framesMixed).toBe(0);
    b.transport.setDaveReceiveKey(SSRC_A, secret);
    await sleep(60);
    const levels: number[] = [];
    await feedTone(a.transport, 20);
    await waitFor(() => {
      levels.push(...drain(b.transport));
      return b.transport.stats().framesMixed >= 20;
    }, 'decrypted frames');
    expect(median(levels.filter((level) => level > TONE_RMS / 4))).toBeGreaterThan(TONE_RMS * 0.8);
  });

  it('counts malformed and foreign datagrams without crashing, and keeps working', async () => {
    peer = new VoicePeer();
    await peer.listen();
    const b = await connect(SSRC_B);
    await peer.send(Uint8Array.of(1, 2, 3), b.port); // too short for RTP
    await peer.send(Uint8Array.of(0x81, 0xc8, 0, 6, 0, 0, 0, 1, 0, 0, 0, 0), b.port); // RTCP sender report
    const forged = new Uint8Array(60);
    forged.set([0x80, 120, 0, 1, 0, 0, 0, 0, 0, 0, 0x08, 0xae]);
    await peer.send(forged, b.port); // RTP with Opus's payload type but a wrong tag
    await peer.send(new Uint8Array(74), b.port); // a stray discovery-sized packet
    const foreign = new VoicePeer();
    await foreign.listen();
    await foreign.send(forged, b.port); // not from the server
    await foreign.close();
    await waitFor(() => b.transport.stats().packetsReceived >= 6, 'the datagrams');
    const stats = b.transport.stats();
    expect(stats).toMatchObject({ droppedNotRtp: 3, droppedOpenFailed: 1, droppedForeignSource: 1 });
    expect(stats.framesMixed).toBe(0);
    expect(b.transport.state()).toBe('running');
    // Still alive: a real sender gets through.
    const a = await connect(SSRC_A);
    await feedTone(a.transport, 8);
    await waitFor(() => b.transport.stats().framesMixed >= 8, 'frames after the junk');
  });

  it('refuses partial frames and a full send ring without blocking, counting both', async () => {
    const transport = await transportToPeer();
    expect(transport.pushPcm(new Int16Array(VOICE_FRAME_SAMPLES + 10))).toBe(1);
    expect(transport.pushPcm(new Int16Array(64 * VOICE_FRAME_SAMPLES))).toBeLessThan(64);
    const stats = transport.stats();
    expect(stats.droppedInputPartial).toBe(10);
    expect(stats.droppedInputOverrun).toBeGreaterThan(0);
  });

  it('reports the thread priority it was granted, and asks for none when told not to', async () => {
    peer = new VoicePeer();
    await peer.listen();
    const options = { serverHost: '127.0.0.1', serverPort: peer.port, ssrc: SSRC_A, discover: false };
    const raised = engine.createVoiceTransport(options);
    const plain = engine.createVoiceTransport({ ...options, raisePriority: false });
    open.push(raised, plain);
    await raised.start();
    await plain.start();
    await waitFor(() => raised.stats().ticks > 0 && plain.stats().ticks > 0, 'the first ticks');
    expect(plain.stats().priority).toBe(0);
    // 2 (SCHED_FIFO) as root or with CAP_SYS_NICE, 1 (nice), 3 (a short slice on Linux ≥ 6.12) or 0
    // elsewhere; Windows grants 4 (MMCSS) or 5 (time-critical) instead, 0 when both are refused; the JS
    // engine has no thread.
    const granted = process.platform === 'win32' ? [0, 4, 5] : [0, 1, 2, 3];
    expect(granted).toContain(raised.stats().priority);
    if (kind === 'js') expect(raised.stats().priority).toBe(0);
    if (kind === 'native' && shortSlicesAllowed()) {
      expect(raised.stats().priority).not.toBe(0);
      // What an unprivileged process gets: as root, asked again as nobody.
      if (process.getuid?.() === 0) expect(priorityAsNobody()).toBe('3');
    }
  });

  it('reports how late its ticks began: median, 99th percentile and the latest', async () => {
    const transport = await transportToPeer();
    await transport.start();
    await waitFor(() => transport.stats().ticks >= 10, 'ten ticks');
    const { tickLatenessP50Us, tickLatenessP99Us, maxLatenessUs } = transport.stats();
    expect(tickLatenessP50Us).toBeGreaterThan(0); // the upper edge of a 10 µs bucket
    expect(tickLatenessP50Us).toBeLessThanOrEqual(tickLatenessP99Us);
    expect(tickLatenessP99Us - 10).toBeLessThanOrEqual(maxLatenessUs);
  });

  it('says when its next tick is due, counting down within one 20 ms tick', async () => {
    const transport = await transportToPeer();
    expect(transport.stats().nextTickInUs).toBe(0); // not ticking yet
    await transport.start();
    await waitFor(() => transport.stats().ticks >= 3, 'three ticks');
    // Within one tick the countdown falls as time passes; across ticks the deadline moves 20 ms per tick.
    const ticks = transport.stats().ticks;
    await waitFor(() => transport.stats().ticks > ticks, 'the next tick');
    const first = transport.stats();
    const readAt = performance.now();
    expect(first.nextTickInUs).toBeGreaterThan(0);
    expect(first.nextTickInUs).toBeLessThanOrEqual(20_000);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = transport.stats();
    const elapsedUs = (performance.now() - readAt) * 1000;
    if (second.ticks === first.ticks) {
      // Within the same tick: the countdown fell by the time that passed (2 ms slack for the reads).
      expect(Math.abs(first.nextTickInUs - second.nextTickInUs - elapsedUs)).toBeLessThan(2000);
    } else {
      // A tick came between the reads (a slow machine): the deadline moved on by whole ticks.
      const moved = second.nextTickInUs - first.nextTickInUs + elapsedUs;
      expect(Math.abs(moved - 20_000 * (second.ticks - first.ticks))).toBeLessThan(2000);
    }
  });

  it('in push-to-talk mode sends only while the key is held; deafened, mixes and sends nothing', async () => {
    peer = new VoicePeer();
    await peer.listen();
    const a = await connect(SSRC_A);
    const b = await connect(SSRC_B);
    a.transport.setPushToTalkMode(true);
    await sleep(40);
    await feedTone(a.transport, 10);
    await waitFor(() => a.transport.stats().ticks >= 20, 'the frames to be taken');
    await sleep(60);
    expect(a.transport.stats().packetsSent).toBe(0);
    a.transport.setPushToTalk(true);
    await sleep(40);
    await feedTone(a.transport, 10);
    await waitFor(
      () => a.transport.stats().voiceFramesSent >= 10 && b.transport.stats().framesMixed >= 8,
      'push-to-talk frames',
    );
    expect(a.transport.stats().voiceFramesSent).toBe(10);
    // Deafened, B mixes nothing more (and sends nothing).
    b.transport.setSelfDeaf(true);
    await sleep(60);
    drain(b.transport);
    const levels: number[] = [];
    await feedTone(a.transport, 10);
    await waitFor(() => {
      levels.push(...drain(b.transport));
      return a.transport.stats().voiceFramesSent >= 20;
    }, 'the second burst');
    await sleep(100);
    levels.push(...drain(b.transport));
    expect(levels.filter((level) => level > 0)).toEqual([]);
  });

  it('in speaker-output mode hands each speaker its own unmixed frames, tagged by SSRC and tick', async () => {
    peer = new VoicePeer();
    await peer.listen();
    const a = await connect(SSRC_A);
    const c = await connect(SSRC_C);
    const b = await connect(SSRC_B);
    b.transport.setSpeakerOutput(true);
    await sleep(40);
    // A speaks loud, C quietly (a tenth of A's level after capture gain): unmixed, each keeps its level.
    c.transport.setCaptureGain(0.1);
    await sleep(40);
    await Promise.all([feedTone(a.transport, 20), feedTone(c.transport, 20)]);
    const out = new Int16Array(4 * VOICE_FRAME_SAMPLES);
    const ssrcs = new Uint32Array(4);
    const ticks = new Uint32Array(3); // the smallest buffer bounds the pull
    const levels = new Map<number, number[]>();
    const tickSsrcs = new Map<number, Set<number>>();
    let lastTick = 0;
    await waitFor(() => {
      out[3 * VOICE_FRAME_SAMPLES] = 4321; // a fourth frame slot that `ticks` has no room for
      const n = b.transport.pullSpeakerPcm(out, ssrcs, ticks);
      expect(n).toBeLessThanOrEqual(3);
      expect(out[3 * VOICE_FRAME_SAMPLES]).toBe(4321);
      for (let i = 0; i < n; i++) {
        const ssrc = ssrcs[i] ?? 0;
        const tick = ticks[i] ?? 0;
        expect(tick).toBeGreaterThanOrEqual(lastTick);
        lastTick = tick;
        const list = levels.get(ssrc) ?? [];
        list.push(rms(out.subarray(i * VOICE_FRAME_SAMPLES, (i + 1) * VOICE_FRAME_SAMPLES)));
        levels.set(ssrc, list);
        const set = tickSsrcs.get(tick) ?? new Set<number>();
        expect(set.has(ssrc)).toBe(false); // one frame per speaker per tick
        set.add(ssrc);
        tickSsrcs.set(tick, set);
      }
      return (levels.get(SSRC_A)?.length ?? 0) >= 20 && (levels.get(SSRC_C)?.length ?? 0) >= 20;
    }, 'per-speaker frames');
    expect([...levels.keys()].sort()).toEqual([SSRC_A, SSRC_C].sort());
    // Unmixed, each keeps its own level (medians are loose: the JS engine conceals late frames under load).
    const peakA = Math.max(...(levels.get(SSRC_A) ?? []));
    const peakC = Math.max(...(levels.get(SSRC_C) ?? []));
    expect(peakA).toBeGreaterThan(TONE_RMS * 0.8);
    expect(peakA).toBeLessThan(TONE_RMS * 1.2);
    expect(peakC).toBeGreaterThan(TONE_RMS * 0.07);
    expect(peakC).toBeLessThan(TONE_RMS * 0.13);
    expect(median((levels.get(SSRC_A) ?? []).filter((level) => level > TONE_RMS / 4))).toBeGreaterThan(
      TONE_RMS * 0.5,
    );
    // Both spoke in most of the same ticks, and nothing went to the mixed queue.
    expect([...tickSsrcs.values()].filter((set) => set.size === 2).length).toBeGreaterThan(5);
    expect(b.transport.pcmAvailable()).toBe(0);
    if (kind === 'native') expect(b.transport.stats().allocationsInTicks).toBe(0);
    // Off again: the mixed queue is fed once more.
    b.transport.setSpeakerOutput(false);
    await sleep(40);
    const mixedBefore = b.transport.stats().framesMixed;
    await feedTone(a.transport, 6);
    await waitFor(
      () => b.transport.pcmAvailable() > 0 && b.transport.stats().framesMixed > mixedBefore,
      'mixed frames after speaker mode',
    );
  });

  it('holds 32 speakers, counts the 33rd, and frees a slot and its keys with removeSpeaker', async () => {
    peer = new VoicePeer();
    await peer.listen();
    const a = await connect(SSRC_A);
    const b = await connect(SSRC_B);
    const secret = new Uint8Array(16).fill(9);
    // A DAVE key per SSRC takes a slot: 32 other speakers fill them all.
    for (let ssrc = 1; ssrc <= 32; ssrc++) b.transport.setDaveReceiveKey(ssrc, secret);
    await sleep(60);
    await feedTone(a.transport, 4);
    await waitFor(() => b.transport.stats().droppedTooManySsrcs >= 4, 'the refused speaker');
    expect(b.transport.stats().framesMixed).toBe(0);
    b.transport.removeSpeaker(1);
    a.transport.setDaveSendKey(secret);
    b.transport.setDaveReceiveKey(SSRC_A, secret);
    await sleep(60);
    await feedTone(a.transport, 6);
    await waitFor(() => b.transport.stats().framesMixed >= 4, "A's frames in the freed slot");
    // Removing A drops its key: its next encrypted frames are refused, not decrypted with the old key.
    b.transport.removeSpeaker(SSRC_A);
    await sleep(60);
    const refused = b.transport.stats().droppedDaveFailed;
    await feedTone(a.transport, 4);
    await waitFor(() => b.transport.stats().droppedDaveFailed >= refused + 4, 'frames without the key');
  });

  it('refuses out-of-range settings with ERR_TRANSPORT_BAD_ARGUMENT', () => {
    const transport = engine.createVoiceTransport({
      serverHost: '127.0.0.1',
      serverPort: 9,
      ssrc: 1,
      discover: false,
    });
    const code = (call: () => void): unknown => {
      try {
        call();
      } catch (error) {
        return (error as { code?: unknown }).code;
      }
      return 'no error';
    };
    expect(code(() => transport.setCaptureGain(11))).toBe('ERR_TRANSPORT_BAD_ARGUMENT');
    expect(code(() => transport.setCaptureGain(Number.NaN))).toBe('ERR_TRANSPORT_BAD_ARGUMENT');
    expect(code(() => transport.setVadThresholdDb(1))).toBe('ERR_TRANSPORT_BAD_ARGUMENT');
    expect(code(() => transport.setUserGain(5, -1))).toBe('ERR_TRANSPORT_BAD_ARGUMENT');
    expect(code(() => transport.setPushToTalkReleaseDelayMs(60001))).toBe('ERR_TRANSPORT_BAD_ARGUMENT');
    expect(code(() => transport.setPushToTalkReleaseDelayMs(-1))).toBe('ERR_TRANSPORT_BAD_ARGUMENT');
    expect(code(() => transport.setPushToTalkReleaseDelayMs(250))).toBe('no error');
    expect(code(() => transport.setCaptureGain(2))).toBe('no error');
    expect(code(() => transport.setVadThresholdDb(-40))).toBe('no error');
    expect(code(() => transport.setUserGain(5, 0.5))).toBe('no error');
  });

  it('stops and starts again, and carries audio after the restart', async () => {
    peer = new VoicePeer();
    await peer.listen();
    const a = await connect(SSRC_A);
    const b = await connect(SSRC_B);
    await a.transport.stop();
    expect(a.transport.state()).toBe('stopped');
    const port = await a.transport.start();
    await waitFor(() => a.transport.state() === 'running', 'rediscovery');
    expect(a.transport.discovered()).toEqual({ address: '127.0.0.1', port });
    await feedTone(a.transport, 8);
    await waitFor(() => b.transport.stats().framesMixed >= 8, 'frames after the restart');
  });
});

// The addon must survive being dropped or the process ending while its thread runs: the finalizer and
// the environment cleanup hook both join the thread. Run in a child process so a crash shows as a
// signal instead of taking the test runner down.
describe('the native transport thread at teardown', () => {
  const addonPath = fileURLToPath(
    new URL('../../../packages/sdkpp/build/Release/sdkpp_native.node', import.meta.url),
  );

  it.runIf(existsSync(addonPath))(
    'is collected and joined while running, and the process exits cleanly',
    () => {
      const script = `
      const dgram = require('node:dgram');
      const addon = require(${JSON.stringify(addonPath)});
      const peer = dgram.createSocket('udp4');
      peer.bind(0, '127.0.0.1', async () => {
        const options = { serverHost: '127.0.0.1', serverPort: peer.address().port, ssrc: 5, discover: false };
        let t = new addon.VoiceTransport(options);
        t.start();
        t.setTransportKey('aead_aes256_gcm_rtpsize', Buffer.alloc(32, 1));
        t.pushPcm(new Int16Array(1920 * 4));
        t = null;
        await new Promise((r) => setTimeout(r, 100));
        globalThis.gc();
        await new Promise((r) => setTimeout(r, 100));
        const kept = new addon.VoiceTransport(options);
        kept.start(); // still running when the process ends: the cleanup hook joins it
        await new Promise((r) => setTimeout(r, 50));
        peer.close();
        console.log('done');
      });
    `;
      const child = spawnSync(process.execPath, ['--expose-gc', '-e', script], {
        encoding: 'utf8',
        timeout: 20000,
      });
      expect(child.signal).toBeNull();
      expect(child.stderr).toBe('');
      expect(child.stdout.trim()).toBe('done');
      expect(child.status).toBe(0);
    },
  );
});
