// DAVE frame cost (encrypt + decrypt of one 120-byte Opus frame), one JSON line each:
//   dave-frame     our native engine vs @snazzah/davey (Rust via napi, allocating a Buffer per call), the
//                  peer the issue names; both with the keys of one real MLS group (test/interop/daveGroup)
//   dave-frame-js  our JS engine (node:crypto) vs the same davey numbers
// Ours write into caller-owned buffers; davey returns new Buffers, which is part of what using it costs.
// Run: npx tsx bench/dave.ts
import { randomBytes } from 'node:crypto';

import type { MediaType } from '@snazzah/davey';

import { createMediaEngine, type MediaEngineKind } from '../packages/sdkpp/src/media/index.js';
import { createDaveTestGroup } from '../test/interop/daveGroup.js';
import { nsPerCall, report, result } from './lib/report.js';

const ROUNDS = 50_000;
const FRAME = randomBytes(120);
// davey's MediaType is a const enum, which isolated modules cannot read; AUDIO is 0.
// eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment -- its value from davey's index.d.ts
const AUDIO = 0 as MediaType;

const group = await createDaveTestGroup();

/** ns per encrypt + decrypt through one of our engines, with the group's real sender key. */
function ours(kind: MediaEngineKind): number {
  const engine = createMediaEngine({ prefer: kind });
  const encryptor = engine.createDaveEncryptor();
  encryptor.setKeyRatchet(group.ourKey);
  const decryptor = engine.createDaveDecryptor();
  decryptor.transitionToKeyRatchet(group.ourKey);
  const sealed = Buffer.alloc(encryptor.maxEncryptedLength(FRAME.length));
  const plain = Buffer.alloc(sealed.length);
  return nsPerCall(ROUNDS, () => {
    const encrypted = encryptor.encrypt(FRAME, sealed);
    if (!encrypted.ok) throw new Error(`encrypt failed: ${encrypted.code}`);
    const decrypted = decryptor.decrypt(sealed.subarray(0, encrypted.length), plain);
    if (!decrypted.ok) throw new Error(`decrypt failed: ${decrypted.code}`);
  });
}

/** ns per encryptOpus by one davey member + decrypt by another, as discord.js uses davey. */
function davey(): number {
  const sender = String(group.peerUserId);
  return nsPerCall(ROUNDS, () => {
    group.davey.decrypt(sender, AUDIO, group.daveyPeer.encryptOpus(FRAME));
  });
}

const peer = davey();
report(result('dave-frame', 'ns', ours('native'), '@snazzah/davey', peer));
report(result('dave-frame-js', 'ns', ours('js'), '@snazzah/davey', peer));
