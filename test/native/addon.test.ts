import { execFileSync } from 'node:child_process';
import { createCipheriv, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';

import { beforeAll, describe, expect, it } from 'vitest';

import { loadNativeAddon } from '../../packages/sdkpp/src/media/addon/loader.js';
import { NATIVE_ADDON_ABI, type NativeAddon } from '../../packages/sdkpp/src/media/addon/types.js';
import { NativeVoiceTransportFacade } from '../../packages/sdkpp/src/media/native/NativeVoiceTransportFacade.js';
import { requireNativeAddon } from './requireAddon.js';

const packageVersion = (
  JSON.parse(readFileSync(new URL('../../packages/sdkpp/package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

function thrown(action: () => unknown): Error & { code?: unknown } {
  try {
    action();
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`threw a non-Error: ${String(error)}`);
  }
  throw new Error('did not throw');
}

describe('the native addon (raw exports)', () => {
  let addon: NativeAddon;
  beforeAll(() => {
    addon = requireNativeAddon();
  });

  it('exports exactly the functions typed in src/media/addon/types.ts', () => {
    expect(Object.keys(addon).sort()).toEqual([
      'AudioProcessor',
      'DaveDecryptor',
      'DaveEncryptor',
      'JitterBuffer',
      'OpusDecoder',
      'OpusEncoder',
      'SystemAudio',
      'TransportCryptor',
      'VirtualAudio',
      'VoiceProcessingLink',
      'VoiceTransport',
      'aeadOpen',
      'aeadSeal',
      'audioResultNames',
      'audioSelfTest',
      'cryptoSelfTest',
      'daveFrameKey',
      'daveResultNames',
      'daveSelfTest',
      'engineInfo',
      'hkdfSha256Expand',
      'hkdfSha256Extract',
      'ipDiscoveryParse',
      'ipDiscoveryWrite',
      // P-256 for the MLS cipher suite: there whenever the libcrypto has EC, as every Linux x64 build's does.
      'p256Generate',
      'p256PublicPoint',
      'p256SharedSecret',
      'p256Sign',
      'p256Verify',
      'rtpParsePacket',
      'rtpResultNames',
      'rtpWriteHeader',
      'systemAudioBuilt',
      'transportSelfTest',
      'version',
    ]);
  });

  it('refuses a processing link made of anything but a SystemAudio or a live id, with typed errors', () => {
    const Link = addon.VoiceProcessingLink;
    if (!Link) throw new Error('this addon has no VoiceProcessingLink');
    const make = Link as unknown as new (from: unknown) => unknown;
    for (const bad of [undefined, null, 'x', {}, new Int16Array(4)]) {
      expect(() => new make(bad)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
    }
    for (const id of [0, -1, 1.5, 2 ** 32, Number.NaN, 4_000_000_000]) {
      expect(() => new make(id)).toThrow(expect.objectContaining({ code: 'ERR_PROCESSING_LINK_NOT_FOUND' }));
    }
  });

  it('keeps a virtual microphone ring: whole reads in order, bounded at 4 s, typed errors after dispose', () => {
    const Virtual = addon.VirtualAudio;
    if (!Virtual) throw new Error('this addon has no VirtualAudio');
    const audio = new Virtual();
    const frame = new Int16Array(1920);
    expect(audio.readInput(frame)).toBe(false); // nothing queued: nothing read, not a partial frame
    const ramp = Int16Array.from({ length: 3 * 1920 }, (_, i) => i % 30_000);
    expect(audio.pushInput(ramp)).toBe(ramp.length);
    expect(audio.stats()).toEqual({ inputQueued: ramp.length, outputSamples: 0 });
    for (let n = 0; n < 3; n++) {
      expect(audio.readInput(frame)).toBe(true);
      expect(Array.from(frame)).toEqual(Array.from(ramp.subarray(n * 1920, (n + 1) * 1920)));
    }
    expect(audio.readInput(frame)).toBe(false);
    // The ring holds 4 s (rounded up to a power of two) and keeps what fits, never more.
    const second = new Int16Array(96_000);
    let queued = 0;
    for (let i = 0; i < 8; i++) queued += audio.pushInput(second);
    expect(queued).toBeGreaterThanOrEqual(4 * 96_000);
    expect(queued).toBeLessThan(8 * 96_000);
    expect(audio.stats().inputQueued).toBe(queued);
    const make = Virtual as unknown as new () => { pushInput(pcm: unknown): number };
    for (const bad of [undefined, 'x', [1, 2], new Float32Array(4)]) {
      expect(() => new make().pushInput(bad)).toThrow(
        expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }),
      );
    }
    audio.dispose();
    expect(thrown(() => audio.readInput(frame)).code).toBe('ERR_VIRTUAL_AUDIO_DISPOSED');
    expect(thrown(() => audio.stats()).code).toBe('ERR_VIRTUAL_AUDIO_DISPOSED');
  });

  it('writes the transport counters into a Float64Array in statsFields order, the same as stats() and the facade', async () => {
    const transport = new addon.VoiceTransport({
      serverHost: '127.0.0.1',
      serverPort: 9,
      ssrc: 7,
      discover: false,
    });
    transport.start();
    const frame = new Int16Array(1920).fill(3000);
    for (let i = 0; i < 4; i++) transport.pushPcm(frame);
    await new Promise((resolve) => setTimeout(resolve, 120));
    transport.stop(); // the counters stand still from here
    const fields = addon.VoiceTransport.statsFields();
    const out = new Float64Array(fields.length + 3).fill(-1);
    expect(transport.statsInto(out)).toBe(fields.length);
    const raw = transport.stats() as unknown as Record<string, number>;
    expect(Object.keys(raw)).toEqual(fields);
    expect(fields.map((_, i) => out[i])).toEqual(fields.map((name) => raw[name]));
    expect(Array.from(out.subarray(fields.length))).toEqual([-1, -1, -1]); // nothing past the counters
    expect(raw.ticks).toBeGreaterThan(0);
    expect(raw.packetsSent).toBe(0); // no key yet: nothing sealed, each frame counted as keyless
    expect(raw.droppedNoKey).toBeGreaterThan(0);
    // The engine's facade builds the same object from the array.
    const facade = new NativeVoiceTransportFacade(addon, {
      serverHost: '127.0.0.1',
      serverPort: 9,
      ssrc: 8,
      discover: false,
    });
    await facade.start();
    await new Promise((resolve) => setTimeout(resolve, 60));
    await facade.stop();
    const viaArray = facade.stats();
    expect(Object.keys(viaArray)).toEqual(fields);
    expect(viaArray.ticks).toBeGreaterThan(0);
    for (const short of [new Float64Array(3), new Float32Array(40)])
      expect(thrown(() => transport.statsInto(short as Float64Array)).code).toMatch(
        /^ERR_(TRANSPORT_BAD_ARGUMENT|INVALID_ARG_TYPE)$/,
      );
  });

  it('reports the package version', () => {
    expect(addon.version()).toBe(packageVersion);
    expect(addon.engineInfo().version).toBe(packageVersion);
  });

  it('describes itself with the agreed engineInfo shape', () => {
    const info = addon.engineInfo();
    expect(info).toEqual({
      name: 'native',
      version: packageVersion,
      abi: NATIVE_ADDON_ABI,
      crypto: { backend: 'OpenSSL', version: expect.any(String) as unknown, linkage: 'static' },
      // .ci/run installs libopus-dev, so the addon is built with it (a build without it reports null).
      opus: { version: expect.stringMatching(/^libopus \d/) as unknown },
      features: ['aes-256-gcm', 'chacha20-poly1305'],
      // CI fetches miniaudio and builds the devices in; its transport thread runs on Linux's sockets.
      systemAudio: { available: true, reason: null },
      voiceTransport: true,
    });
  });

  it('runs on the OpenSSL it carries, whatever the node binary has', () => {
    // The static library's version as its headers name it (scripts/crypto-config.mjs reads them).
    const described = execFileSync(
      process.execPath,
      ['packages/sdkpp/scripts/crypto-config.mjs', 'describe'],
      {
        encoding: 'utf8',
      },
    );
    const carried = /^static OpenSSL (\d+\.\d+\.\d+)/.exec(described)?.[1];
    const reported = /^OpenSSL (\d+\.\d+\.\d+)/.exec(addon.engineInfo().crypto.version)?.[1];
    expect(carried).toBeDefined();
    expect(reported).toBe(carried);
  });

  it('passes its self-test on every run (the round trip draws new lengths each time)', () => {
    for (let run = 0; run < 25; run++) {
      const result = addon.cryptoSelfTest();
      expect(result.ok).toBe(true);
      expect(result.results.map((entry) => entry.algorithm)).toEqual(addon.engineInfo().features);
    }
  });

  it('reads Uint8Array views at their byte offset', () => {
    const backing = randomBytes(200);
    const key = backing.subarray(7, 39);
    const nonce = new Uint8Array(backing.buffer, backing.byteOffset + 50, 12);
    const aad = backing.subarray(70, 90);
    const plaintext = backing.subarray(100, 199);
    const cipher = createCipheriv('aes-256-gcm', key, nonce);
    cipher.setAAD(aad);
    const expected = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
    expect(addon.aeadSeal('aes-256-gcm', key, nonce, aad, plaintext).equals(expected)).toBe(true);
  });

  it('throws TypeError, RangeError and Error with a code, never crashing', () => {
    const key = randomBytes(32);
    const nonce = randomBytes(12);
    const none = Buffer.alloc(0);
    const asAny = addon as unknown as Record<string, (...args: unknown[]) => unknown>;

    const typeError = thrown(() => asAny.aeadSeal?.('aes-256-gcm', 'not bytes', nonce, none, none));
    expect(typeError).toBeInstanceOf(TypeError);
    expect(typeError.code).toBe('ERR_INVALID_ARG_TYPE');
    expect(typeError.message).toContain('"key"');

    expect(thrown(() => asAny.aeadSeal?.()).code).toBe('ERR_INVALID_ARG_TYPE');
    expect(thrown(() => asAny.aeadOpen?.('aes-256-gcm', key, nonce, none, new Uint16Array(8))).code).toBe(
      'ERR_INVALID_ARG_TYPE',
    );
    expect(thrown(() => addon.aeadSeal('aes-128-gcm', key, nonce, none, none)).code).toBe(
      'ERR_AEAD_UNSUPPORTED_ALGORITHM',
    );

    const rangeError = thrown(() => addon.aeadSeal('aes-256-gcm', key.subarray(1), nonce, none, none));
    expect(rangeError).toBeInstanceOf(RangeError);
    expect(rangeError.code).toBe('ERR_AEAD_INVALID_KEY_SIZE');
    expect(rangeError.message).toBe('aes-256-gcm needs a 32-byte key, got 31 bytes');

    const authError = thrown(() => addon.aeadOpen('chacha20-poly1305', key, nonce, none, randomBytes(40)));
    expect(authError.constructor).toBe(Error);
    expect(authError.code).toBe('ERR_AEAD_AUTHENTICATION_FAILED');
  });

  it('loads once per process: another search path to the same file gives the same module', () => {
    const loaded = loadNativeAddon();
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    expect(loaded.path).toMatch(/sdkpp_native\.node$/);
    expect(existsSync(loaded.path)).toBe(true);
    const again = loadNativeAddon({ searchPaths: [loaded.path] });
    expect(again.ok && again.addon).toBe(addon);
    expect(loadNativeAddon()).toBe(loaded);
  });
});
