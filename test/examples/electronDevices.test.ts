/**
 * The Electron sample's other way to wire voice: the main process owns the microphone and speakers (the
 * system's, through the SDK's native engine) and the page only picks them. Its bridge is driven as the
 * preload drives it (see electronMain.test.ts for the seam) on a real PulseAudio server with virtual devices,
 * against a real emulator and a second real SDK client that listens.
 */
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CallStatus, type Client } from 'sdkpp';
import { matchAudio, startEmulator, synthesizeSpeech, writeWavFile, type Emulator } from '@sdkpp/emulator';

import type { SdkppBridge } from '../../examples/electron/src/main/bridge.js';
import {
  INVOKE_CHANNEL,
  type AudioDevicesView,
  type BridgeEvent,
  type BridgeResult,
} from '../../examples/electron/src/shared/api.js';
import { tempDir } from '../integration/callHelpers.js';
import { eventually } from '../integration/helpers.js';
import { playAndRecord, type PulseServer } from '../integration/pulseServer.js';
import { usePulseServer } from '../integration/pulseSetup.js';
import type { bridgeCaller, IpcMainSeam } from './electronIpcSeam.js';
import { bridgeOnSeam, page } from './seamBridge.js';
import { signedInClient } from './signIn.js';

const server = usePulseServer();
let pulse: PulseServer;
let emulator: Emulator;
let ipc: IpcMainSeam;
let value: ReturnType<typeof bridgeCaller>['value'];
let bridge: SdkppBridge;
let bob: Client;
const pushed: BridgeEvent[] = [];

beforeAll(async () => {
  pulse = server();
  pulse.addMicrophone('alice_mic', 'Alice-Headset');
  pulse.addSink('alice_speakers', 'Alice-Speakers');
  pulse.addSink('bob_speakers', 'Bob-Speakers');
  emulator = await startEmulator({ users: 2, autoConsent: true, rpc: false });
  ({ ipc, bridge, value } = bridgeOnSeam(emulator, 'alice', pushed));
  bob = await signedInClient(emulator, 'bob');
}, 30_000);

afterAll(async () => {
  await bridge.close();
  await bob.destroy();
  await emulator.close();
});

describe('Electron sample: the main process owns the devices', () => {
  it('offers the system devices by name, refuses made-up ids, and follows a device plugged in', async () => {
    await value('signIn');
    const devices = await value('getAudioDevices');
    expect(devices.inputs.map((d) => d.name)).toContain('Alice-Headset');
    expect(devices.outputs.map((d) => d.name)).toEqual(
      expect.arrayContaining(['Alice-Speakers', 'Bob-Speakers']),
    );
    expect(devices.inputs[0]?.id).toBe('null');
    expect(devices.inputs.map((d) => d.id)).toContain('default');
    expect(devices.input).toBe('null');

    // A compromised page cannot open a file as its microphone, nor send anything but two listed ids.
    for (const args of [
      ['wav-in:/etc/passwd', 'null'],
      ['null', 'wav-out:/tmp/x.wav'],
      ['pulseaudio:no_such_mic', 'null'],
      [42, 'null'],
      ['null'],
    ]) {
      const refused = (await ipc.invoke(
        page,
        INVOKE_CHANNEL,
        'setAudioDevices',
        ...args,
      )) as BridgeResult<unknown>;
      expect(refused.ok).toBe(false);
      if (!refused.ok) expect(refused.error.code).toBe('invalid-argument');
    }

    const plugged = pulse.addSink('usb_headset', 'USB-Headset');
    const sawIt = (event: BridgeEvent): boolean =>
      event.type === 'audioDevices' && event.devices.outputs.some((d) => d.name === 'USB-Headset');
    await eventually(() => pushed.some(sawIt), 5000, 'the plugged-in headset pushed to the page');
    pulse.unload(plugged);
  });

  it('speaks into a lobby call from the system microphone the page picked, and the other player hears it', async () => {
    const devices = await value('getAudioDevices');
    const headset = devices.inputs.find((d) => d.name === 'Alice-Headset');
    const speakers = devices.outputs.find((d) => d.name === 'Alice-Speakers');
    if (!headset || !speakers) throw new Error('the virtual devices are not offered');
    const chosen: AudioDevicesView = await value('setAudioDevices', headset.id, speakers.id);
    expect(chosen.input).toBe(headset.id);
    expect(chosen.output).toBe(speakers.id);

    const lobbyId = await bob.createOrJoinLobby('tavern');
    expect((await value('joinLobby', 'tavern')).id).toBe(lobbyId);
    await bob.setOutputDevice('pulseaudio:bob_speakers');
    const bobCall = bob.startCall(lobbyId);
    expect(await value('joinVoice', lobbyId)).toBeNull();
    await eventually(
      () => bobCall.getStatus() === CallStatus.Connected && bobCall.getParticipants().length === 2,
      10_000,
      'both in the call',
    );

    const speech = await synthesizeSpeech('Meet me at the tavern, I have the map and the key to the tower.');
    const dir = tempDir();
    const spoken = path.join(dir, 'alice-says.wav');
    writeWavFile(spoken, speech.pcm);
    const heard = await playAndRecord(
      pulse,
      'bob_speakers.monitor',
      'alice_mic_feed',
      spoken,
      path.join(dir, 'bob.wav'),
    );
    const match = matchAudio(speech.pcm, heard);
    if (process.env.SDKPP_DEBUG_SPEECH) console.log('electron main-process devices', JSON.stringify(match));
    // The SDK's echo cancellation, noise suppression and gain control run on the way (a system microphone's
    // default), on its worker thread.
    expect(match.segmentCorrelation).toBeGreaterThanOrEqual(0.85);

    expect(await value('leaveVoice', lobbyId)).toBeNull();
    await bob.endCall(lobbyId);
  }, 60_000);
});
