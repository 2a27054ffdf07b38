import { describe, expect, it } from 'vitest';

import {
  chooseTransportMode,
  decodeServerMessage,
  encodeBinary,
  encodeJson,
  parseClientsConnect,
  parseReady,
  parseSessionDescription,
  parseSpeaking,
  voiceCloseAction,
  voiceGatewayUrl,
} from '../../../packages/protocol/src/voiceGateway.js';

describe('voice gateway framing', () => {
  it('decodes a server binary frame as u16 BE seq, op, payload', () => {
    const message = decodeServerMessage(Uint8Array.of(0x01, 0x02, 25, 9, 8, 7), true);
    expect(message).toEqual({ kind: 'binary', seq: 0x0102, op: 25, payload: Uint8Array.of(9, 8, 7) });
    expect(decodeServerMessage(Uint8Array.of(0xff, 0xff, 30), true)).toMatchObject({ seq: 65535, op: 30 });
    // Too short to hold seq and op.
    expect(decodeServerMessage(Uint8Array.of(1, 2), true)).toBeUndefined();
  });

  it('encodes a client binary frame as op then payload, with no seq', () => {
    expect(encodeBinary(26, Uint8Array.of(1, 2, 3))).toEqual(Uint8Array.of(26, 1, 2, 3));
    expect(encodeBinary(28, new Uint8Array(0))).toEqual(Uint8Array.of(28));
  });

  it('decodes JSON with and without seq, and refuses malformed text', () => {
    expect(decodeServerMessage('{"op":5,"d":{"speaking":1},"seq":10}', false)).toEqual({
      kind: 'json',
      op: 5,
      d: { speaking: 1 },
      seq: 10,
    });
    expect(decodeServerMessage('{"op":6,"d":{"t":1}}', false)).toMatchObject({ op: 6, seq: undefined });
    expect(decodeServerMessage('not json', false)).toBeUndefined();
    expect(decodeServerMessage('{"op":"5"}', false)).toBeUndefined();
    expect(decodeServerMessage('[1,2]', false)).toBeUndefined();
    expect(JSON.parse(encodeJson(3, { t: 1, seq_ack: 4 }))).toEqual({ op: 3, d: { t: 1, seq_ack: 4 } });
  });

  it('resumes on 4015 and below 4000, never comes back on 4014/4021/4022, reconnects otherwise', () => {
    expect(voiceCloseAction(4015)).toBe('resume');
    expect(voiceCloseAction(1006)).toBe('resume');
    expect(voiceCloseAction(1000)).toBe('resume');
    for (const code of [4014, 4021, 4022]) expect(voiceCloseAction(code)).toBe('terminal');
    for (const code of [4006, 4009, 4004, 4017]) expect(voiceCloseAction(code)).toBe('reconnect');
  });

  it('prefers AES-GCM, falls back to XChaCha20, and refuses when neither is offered', () => {
    expect(chooseTransportMode(['aead_xchacha20_poly1305_rtpsize', 'aead_aes256_gcm_rtpsize'])).toBe(
      'aead_aes256_gcm_rtpsize',
    );
    expect(chooseTransportMode(['aead_xchacha20_poly1305_rtpsize'])).toBe('aead_xchacha20_poly1305_rtpsize');
    expect(chooseTransportMode(['xsalsa20_poly1305'])).toBeUndefined();
  });

  it('builds the voice URL with v=8 and the scheme of the API', () => {
    expect(voiceGatewayUrl('127.0.0.1:5000', false)).toBe('ws://127.0.0.1:5000/?v=8');
    expect(voiceGatewayUrl('voice.example:443', true)).toBe('wss://voice.example:443/?v=8');
  });

  it('parses Ready, Session Description, Speaking and Clients Connect, refusing bad fields', () => {
    expect(parseReady({ ssrc: 5, ip: '127.0.0.1', port: 9, modes: ['a', 3] })).toEqual({
      ssrc: 5,
      ip: '127.0.0.1',
      port: 9,
      modes: ['a'],
    });
    expect(parseReady({ ssrc: -1, ip: '127.0.0.1', port: 9, modes: [] })).toBeUndefined();
    expect(parseReady({ ssrc: 1, ip: '127.0.0.1', port: 70000, modes: [] })).toBeUndefined();
    const key = Array.from({ length: 32 }, (_, i) => i);
    expect(
      parseSessionDescription({ mode: 'm', secret_key: key, dave_protocol_version: 1 })?.secretKey,
    ).toEqual(Uint8Array.from(key));
    expect(parseSessionDescription({ mode: 'm', secret_key: key.slice(1) })).toBeUndefined();
    expect(parseSessionDescription({ mode: 'm', secret_key: [...key.slice(1), 256] })).toBeUndefined();
    expect(parseSpeaking({ user_id: '7', ssrc: 3, speaking: 1 })).toEqual({
      userId: '7',
      ssrc: 3,
      speaking: 1,
    });
    expect(parseSpeaking({ user_id: 7, ssrc: 3 })).toBeUndefined();
    expect(parseClientsConnect({ user_ids: ['1', 2, '3'] })).toEqual(['1', '3']);
  });
});
