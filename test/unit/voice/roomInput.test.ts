import { describe, expect, it } from 'vitest';

import { ValidationError } from '../../../packages/protocol/src/errors/index.js';
import { describeDevice, openInput } from '../../../packages/sdkpp/src/voice/devices/audioDevices.js';
import { parseRoomId, RoomInput } from '../../../packages/sdkpp/src/voice/devices/RoomInput.js';

const FRAME = 1920;

describe('room:<delay ms>:<gain dB> (a simulated room as the microphone)', () => {
  it('gives back what the speakers played, exactly that much later and quieter, and nothing before', () => {
    const room = new RoomInput({ delayMs: 50, gainDb: -6 });
    const frame = new Int16Array(FRAME);
    expect(room.read(frame)).toBe(false); // nothing played yet
    const played = new Int16Array(5 * FRAME).map((_, i) => ((i * 97) % 20_000) - 10_000);
    const heard = new Int16Array(5 * FRAME);
    for (let f = 0; f < 5; f++) {
      // The pump reads the microphone before it plays within a tick.
      heard.set(room.read(frame) ? frame : new Int16Array(FRAME), f * FRAME);
      room.hear(played.subarray(f * FRAME, (f + 1) * FRAME));
    }
    const delay = 2 * Math.round(0.05 * 48_000);
    const gain = 10 ** (-6 / 20);
    for (let i = 0; i < heard.length; i++) {
      // One frame of the pump's own order, then the room's 50 ms.
      const source = i - FRAME - delay;
      expect(heard[i]).toBe(source < 0 ? 0 : Math.round((played[source] ?? 0) * gain));
    }
  });

  it('is a listed input device with a name, and refuses echoes it cannot model', () => {
    expect(parseRoomId('room:50:-6')).toEqual({ delayMs: 50, gainDb: -6 });
    expect(describeDevice('room:80:-12', 'input')?.name).toBe('Simulated room (echo 80 ms, -12 dB)');
    expect(describeDevice('room:80:-12', 'output')).toBeUndefined();
    expect(openInput('room:0:0')).toBeInstanceOf(RoomInput);
    for (const id of ['room:501:-6', 'room:50:3', 'room:50:-61', 'room:-5:-6', 'room:50', 'room::'])
      expect(parseRoomId(id)).toBeUndefined();
    expect(() => openInput('room:900:-6')).toThrow(ValidationError);
  });
});
