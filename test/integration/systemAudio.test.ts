import path from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import {
  CallStatus,
  createMediaEngine,
  type Client,
  MediaEngineError,
  type AudioDevice,
  type AudioDeviceLoss,
} from '../../packages/sdkpp/src/index.js';
import { matchAudio, synthesizeSpeech, writeWavFile } from '../../packages/emulator/src/index.js';
import { Client as BindingsClient } from '../../packages/sdkpp/bindings/index.js';
import { pumpUntil } from './bindingsHelpers.js';
import { bothInCall, sameEpoch, tempDir, twoInALobby } from './callHelpers.js';
import { emulatorFor, eventually, linkAndConnect, userAt } from './helpers.js';
import { playAndRecord as playAndRecordOn, type PulseServer } from './pulseServer.js';
import { usePulseServer } from './pulseSetup.js';

// Issue 17: the system's microphones and speakers, on a real PulseAudio server with virtual devices. Alice's
// microphone is a null sink's monitor (remapped as a source) fed with an espeak-ng sentence; Bob's speaker
// is a null sink whose monitor is recorded. Between them: the SDK's device selection, miniaudio inside the
// native addon, and a whole DAVE call through the emulator.

const SENTENCE = 'Hello Bob, can you hear me? The castle is over the hill, bring the torch and the map.';

const server = usePulseServer();
let pulse: PulseServer;
beforeAll(() => {
  pulse = server();
});

const playAndRecord = (source: string, sink: string, file: string, heard: string): Promise<Int16Array> =>
  playAndRecordOn(pulse, source, sink, file, heard);

/**
 * These tests judge the devices' own path: the voice processing a system microphone gets by default is
 * switched off (systemAudioProcessing.test.ts tests it).
 */
async function unprocessed(client: Client): Promise<void> {
  await client.setEchoCancellation(false);
  await client.setNoiseSuppression(false);
  await client.setAutomaticGainControl(false);
}

function byName(devices: AudioDevice[], name: string): AudioDevice {
  const device = devices.find((d) => d.name === name);
  if (!device) throw new Error(`no device named ${name} in ${JSON.stringify(devices)}`);
  return device;
}

/**
 * The test sentence spoken into the microphone fed by `feed`, and how well `monitor` (a speaker's monitor)
 * heard it: the segment correlation, printed under `label` with SDKPP_DEBUG_SPEECH.
 */
async function sentenceHeard(label: string, feed: string, monitor: string): Promise<number> {
  const dir = tempDir();
  const speech = await synthesizeSpeech(SENTENCE);
  const spoken = path.join(dir, 'says.wav');
  writeWavFile(spoken, speech.pcm);
  const heard = await playAndRecord(monitor, feed, spoken, path.join(dir, 'heard.wav'));
  const match = matchAudio(speech.pcm, heard);
  if (process.env.SDKPP_DEBUG_SPEECH) console.log(label, JSON.stringify(match));
  return match.segmentCorrelation;
}

describe('system audio devices (PulseAudio, native engine)', () => {
  it('carries a spoken sentence from Alice’s microphone to Bob’s speaker, and survives the speaker being unplugged', async () => {
    pulse.addMicrophone('alice_mic', 'Alice-Headset');
    const bobSpeakerModule = pulse.addSink('bob_speaker', 'Bob-Headphones');
    pulse.addSink('room_speaker', 'Room-Speakers');
    pulse.pactl('set-default-sink', 'room_speaker');

    const { alice, bob, lobbyId } = await twoInALobby({ mediaEngine: 'native' });

    // Devices are listed by name; the ids are the backend's, prefixed with it.
    const microphone = byName(await alice.client.getInputDevices(), 'Alice-Headset');
    expect(microphone.id).toBe('pulseaudio:alice_mic');
    const outputs = await bob.client.getOutputDevices();
    const headphones = byName(outputs, 'Bob-Headphones');
    expect(byName(outputs, 'Room-Speakers').isDefault).toBe(true);
    expect(outputs.find((d) => d.id === 'default')?.name).toBe('System default (Room-Speakers)');
    await alice.client.setInputDevice(microphone.id);
    expect(alice.client.getEchoCancellation()).toBe(true); // on by default for a system microphone
    await unprocessed(alice.client);
    await alice.client.setOutputDevice('null');
    await bob.client.setOutputDevice(headphones.id);
    expect((await bob.client.getCurrentOutputDevice()).name).toBe('Bob-Headphones');

    const { aliceCall, bobCall } = await bothInCall(alice.client, bob.client, lobbyId);
    await sameEpoch(aliceCall, bobCall);

    // Nothing on the JavaScript thread needs the audio (no processing, no callbacks, no game audio): the
    // transports' own threads read Alice's microphone and feed Bob's speaker.
    await eventually(
      () => aliceCall.getTransportStats()?.devicesLinked === 1,
      2000,
      'Alice’s microphone linked',
    );
    await eventually(() => bobCall.getTransportStats()?.devicesLinked === 2, 2000, 'Bob’s speaker linked');

    expect(await sentenceHeard('headphones', 'alice_mic_feed', 'bob_speaker.monitor')).toBeGreaterThanOrEqual(
      0.9,
    );

    // Unplugging Bob's headphones: the device-change event, the loss, and the call goes on on the default.
    const losses: AudioDeviceLoss[] = [];
    const lists: AudioDevice[][] = [];
    bob.client.on('audioDeviceLost', (loss) => losses.push(loss));
    bob.client.on('devicesChanged', (_inputs, outputs) => lists.push(outputs));
    pulse.unload(bobSpeakerModule);
    await eventually(() => losses.length > 0, 5000, 'the loss of the headphones');
    expect(losses[0]).toEqual({
      direction: 'output',
      deviceId: headphones.id,
      reason: 'removed',
      fallbackDeviceId: 'default',
    });
    await eventually(
      () => lists.some((l) => !l.some((d) => d.id === headphones.id)),
      5000,
      'a list without them',
    );
    expect((await bob.client.getCurrentOutputDevice()).id).toBe('default');
    expect(bobCall.getStatus()).toBe(CallStatus.Connected);

    expect(await sentenceHeard('room', 'alice_mic_feed', 'room_speaker.monitor')).toBeGreaterThanOrEqual(0.9);

    await bob.client.endCall(lobbyId);
    await alice.client.endCall(lobbyId);
  }, 60_000);

  it('moves a call to the default microphone when the chosen one is unplugged, and the other player still hears it', async () => {
    const headset = pulse.addMicrophone('carol_mic', 'Carol-Headset');
    pulse.addMicrophone('desk_mic', 'Desk-Mic');
    pulse.pactl('set-default-source', 'desk_mic');
    pulse.addSink('dave_speaker', 'Dave-Speaker');

    const { alice: carol, bob: dave, lobbyId } = await twoInALobby({ mediaEngine: 'native' });
    await carol.client.setInputDevice(byName(await carol.client.getInputDevices(), 'Carol-Headset').id);
    await unprocessed(carol.client);
    await carol.client.setOutputDevice('null');
    await dave.client.setOutputDevice(byName(await dave.client.getOutputDevices(), 'Dave-Speaker').id);
    const { aliceCall: carolCall, bobCall: daveCall } = await bothInCall(carol.client, dave.client, lobbyId);
    await sameEpoch(carolCall, daveCall);

    const losses: AudioDeviceLoss[] = [];
    carol.client.on('audioDeviceLost', (loss) => losses.push(loss));
    pulse.unload(headset.module);
    await eventually(() => losses.length > 0, 5000, 'the loss of the headset');
    expect(losses[0]).toMatchObject({ direction: 'input', reason: 'removed', fallbackDeviceId: 'default' });
    expect((await carol.client.getCurrentInputDevice()).id).toBe('default');
    expect(carolCall.getStatus()).toBe(CallStatus.Connected);
    // The default microphone (the desk's) goes on through the transport's thread.
    await eventually(() => carolCall.getTransportStats()?.devicesLinked === 1, 2000, 'the microphone linked');

    expect(await sentenceHeard('desk', 'desk_mic_feed', 'dave_speaker.monitor')).toBeGreaterThanOrEqual(0.9);

    await dave.client.endCall(lobbyId);
    await carol.client.endCall(lobbyId);
  }, 60_000);

  it('reports a device plugged in and removed through the bindings’ SetDeviceChangeCallback', async () => {
    const client = new BindingsClient();
    const seen: string[][] = [];
    client.SetDeviceChangeCallback((_inputs, outputs) => seen.push(outputs.map((d) => d.Name())));
    let before: string[] = [];
    client.GetOutputDevices((devices) => (before = devices.map((d) => d.Name())));
    await pumpUntil(() => before.length > 0);
    expect(before).not.toContain('USB-Speaker');

    const plugged = pulse.addSink('usb_speaker', 'USB-Speaker');
    await pumpUntil(() => seen.some((names) => names.includes('USB-Speaker')));
    pulse.unload(plugged);
    await pumpUntil(() => (seen.at(-1) ?? []).length > 0 && !(seen.at(-1) ?? []).includes('USB-Speaker'));
    await client.core.destroy();
  });

  it('widens the sound server’s output buffer after the server stalls twice, and only then', async () => {
    pulse.addSink('stall_speaker', 'Stall-Speaker');
    const system = createMediaEngine({ prefer: 'native' }).openSystemAudio();
    const id = system.list('output').find((d) => d.name === 'Stall-Speaker')?.id;
    expect(id).toBeDefined();
    system.open('output', id ?? null);
    // A steady writer, as the transport is: 20 ms of a quiet tone every 20 ms.
    const frame = new Int16Array(1920).map((_, i) => Math.round(2000 * Math.sin((i >> 1) / 8)));
    const writer = setInterval(() => system.write(frame), 20);
    try {
      // Past the stream's start (a null sink starts in bursts, which never widen it), two periods while
      // nothing has been late since.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const starting = system.status('output');
      await new Promise((resolve) => setTimeout(resolve, 2500));
      const before = system.status('output');
      if (before.lateCallbacks === starting.lateCallbacks) expect(before.serverBufferMs).toBe(20);
      const bufferLatency = (): number[] =>
        [...pulse.pactl('list', 'sink-inputs').matchAll(/Buffer Latency: (\d+) usec/g)].map((m) =>
          Number(m[1]),
        );
      // One late callback is a hiccup; a second within 5 s widens the buffer.
      await pulse.stall(200);
      await new Promise((resolve) => setTimeout(resolve, 300));
      if (before.lateCallbacks === starting.lateCallbacks)
        expect(system.status('output').serverBufferMs).toBe(20);
      await pulse.stall(200);
      await eventually(
        () => system.status('output').serverBufferMs >= 200,
        5000,
        'the server buffer to widen',
      );
      const after = system.status('output');
      expect(after.lateCallbacks).toBeGreaterThan(before.lateCallbacks);
      expect(after.longestGapMs).toBeGreaterThanOrEqual(150);
      expect(after.serverBufferMs).toBeLessThanOrEqual(250); // bounded, whatever the stall
      // The server took it: the stream's buffer now holds several times the 20 ms it was asked for before.
      await eventually(() => bufferLatency().some((us) => us >= 50_000), 5000, 'PulseAudio to hold more');
    } finally {
      clearInterval(writer);
      system.dispose();
    }
  });

  it('refuses bad arguments with typed errors and never crashes (the raw engine object)', async () => {
    pulse.addMicrophone('raw_mic', 'Raw-Mic');
    pulse.pactl('set-default-source', 'raw_mic');
    const system = createMediaEngine({ prefer: 'native' }).openSystemAudio();
    expect(system.backend).toBe('PulseAudio');
    const raw = system as unknown as {
      open(d: unknown, id: unknown): void;
      read(o: unknown, n: unknown): boolean;
    };
    expect(() => raw.open('sideways', null)).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }),
    );
    expect(() => raw.open('input', 42)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
    expect(() => raw.read(new Float32Array(1920), 0)).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }),
    );
    expect(() => raw.read(new Int16Array(1920), -1)).toThrow(
      expect.objectContaining({ code: 'ERR_OUT_OF_RANGE' }),
    );
    // A reader that never reads: the microphone's ring fills to its half second and then counts what it
    // drops; nothing grows past it.
    system.open('input', null);
    await eventually(() => system.status('input').droppedSamples > 0, 10_000, 'the ring to overflow');
    expect(system.inputAvailable()).toBe(65_536);
    system.dispose();
    expect(() => system.list('input')).toThrow(
      expect.objectContaining({ code: 'ERR_SYSTEM_AUDIO_DISPOSED' }),
    );
  });

  it('refuses a device that is not there with a typed error', async () => {
    const emulator = await emulatorFor({ autoConsent: true, users: 1 });
    const player = await linkAndConnect(emulator, userAt(emulator, 0), { mediaEngine: 'native' });
    const error = await player.client.setInputDevice('pulseaudio:no_such_mic').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaEngineError);
    expect((error as MediaEngineError).code).toBe('ERR_AUDIO_DEVICE_NOT_FOUND');
    expect((await player.client.getCurrentInputDevice()).id).toBe('null');
  });

  it('says in the JS engine that there are no system devices, and how to get them', async () => {
    const emulator = await emulatorFor({ autoConsent: true, users: 1 });
    const player = await linkAndConnect(emulator, userAt(emulator, 0), { mediaEngine: 'js' });
    expect((await player.client.getInputDevices()).map((d) => d.id)).toEqual(['null']);
    const error = await player.client.setInputDevice('default').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaEngineError);
    expect((error as MediaEngineError).code).toBe('ERR_SYSTEM_AUDIO_UNAVAILABLE');
    expect((error as Error).message).toMatch(/pushAudioInput/);
    expect((error as Error).message).toMatch(/npm rebuild sdkpp/);
  });
});
