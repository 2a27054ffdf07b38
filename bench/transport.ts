// Voice transport cost per packet (seal + open of one 120-byte Opus frame in an RTP packet), one JSON line each:
//   transport-frame          our native engine, aead_aes256_gcm_rtpsize, vs node:crypto used the way
//                            @discordjs/voice does it (a cipher object and Buffer.concat per packet)
//   transport-frame-xchacha  the same for aead_xchacha20_poly1305_rtpsize, vs our JS engine (node:crypto)
//   transport-frame-js       our JS engine vs the same @discordjs/voice-style code, both on node:crypto
// Run: npx tsx bench/transport.ts
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

import {
  createMediaEngine,
  type MediaEngineKind,
  type TransportEncryptionMode,
} from '../packages/sdkpp/src/media/index.js';
import { nsPerCall, report, result } from './lib/report.js';

const ROUNDS = 50_000;
const PAYLOAD = randomBytes(120);
const HEADER = { sequence: 1, timestamp: 960, ssrc: 0x12345678 };
const KEY = randomBytes(32);

/** ns per seal + open through one of our engines, into caller-owned buffers. */
function ours(kind: MediaEngineKind, mode: TransportEncryptionMode): number {
  const cryptor = createMediaEngine({ prefer: kind }).createTransportCryptor(mode, KEY);
  const packet = Buffer.alloc(cryptor.sealedLength(HEADER, PAYLOAD.length));
  const plaintext = Buffer.alloc(packet.length);
  return nsPerCall(ROUNDS, () => {
    cryptor.seal(HEADER, PAYLOAD, packet);
    const opened = cryptor.open(packet, plaintext);
    if (!opened.ok) throw new Error(`open failed: ${opened.code}`);
  });
}

/** ns per seal + open the way @discordjs/voice's Networking does aead_aes256_gcm_rtpsize with node:crypto. */
function discordjsStyle(): number {
  const header = Buffer.alloc(12);
  header[0] = 0x80;
  header[1] = 0x78;
  header.writeUInt32BE(HEADER.ssrc, 8);
  const nonce = Buffer.alloc(12);
  let counter = 0;
  return nsPerCall(ROUNDS, () => {
    counter = (counter + 1) >>> 0;
    nonce.writeUInt32BE(counter, 0);
    const cipher = createCipheriv('aes-256-gcm', KEY, nonce);
    cipher.setAAD(header);
    const sealed = Buffer.concat([cipher.update(PAYLOAD), cipher.final(), cipher.getAuthTag()]);
    const packet = Buffer.concat([header, sealed, nonce.subarray(0, 4)]);
    // Receive side: split, rebuild the nonce, decrypt.
    const body = packet.subarray(12, packet.length - 4);
    const rxNonce = Buffer.alloc(12);
    packet.copy(rxNonce, 0, packet.length - 4);
    const decipher = createDecipheriv('aes-256-gcm', KEY, rxNonce);
    decipher.setAAD(packet.subarray(0, 12));
    decipher.setAuthTag(body.subarray(body.length - 16));
    Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]);
  });
}

const peer = discordjsStyle();
report(
  result(
    'transport-frame',
    'ns',
    ours('native', 'aead_aes256_gcm_rtpsize'),
    '@discordjs/voice (node:crypto)',
    peer,
  ),
);
report(
  result(
    'transport-frame-xchacha',
    'ns',
    ours('native', 'aead_xchacha20_poly1305_rtpsize'),
    'sdkpp JS engine (node:crypto)',
    ours('js', 'aead_xchacha20_poly1305_rtpsize'),
  ),
);
report(
  result(
    'transport-frame-js',
    'ns',
    ours('js', 'aead_aes256_gcm_rtpsize'),
    '@discordjs/voice (node:crypto)',
    peer,
  ),
);
