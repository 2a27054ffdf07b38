// DAVE frame cost (encrypt + decrypt of one 120-byte Opus frame), one JSON line each:
//   dave-frame     our native engine vs @snazzah/davey (Rust via napi, allocating a Buffer per call), the
//                  peer the issue names; both with the keys of one real MLS group (test/interop/daveGroup)
//   dave-frame-js  our JS engine (node:crypto) vs the same davey numbers
// Ours write into caller-owned buffers; davey returns new Buffers, which is part of what using it costs.
// Each line measures both sides in alternating slices and takes each side's median slice
// (nsPerCallInterleaved), so that other work on the machine falls on both alike.
// Run: npx tsx bench/dave.ts
import { randomBytes } from 'node:crypto';

import type { MediaType } from '@snazzah/davey';

import { createMediaEngine, type MediaEngineKind } from '../packages/sdkpp/src/media/index.js';
import { createDaveTestGroup } from '../test/interop/daveGroup.js';
import { nsPerCallInterleaved, report, result } from './lib/report.js';

const ROUNDS = 50_000;
const FRAME = randomBytes(120);
// davey's MediaType is a const enum, which isolated modules cannot read; AUDIO is 0.
// eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment -- its value from davey's index.d.ts
const AUDIO = 0 as MediaType;

const group = await createDaveTestGroup();

/** One encrypt + decrypt through one of our engines, with the group's real sender key. */
function ours(kind: MediaEngineKind): () => void {
  const engine = createMediaEngine({ prefer: kind });
  const encryptor = engine.createDaveEncryptor();
  encryptor.setKeyRatchet(group.ourKey);
  const decryptor = engine.createDaveDecryptor();
  decryptor.transitionToKeyRatchet(group.ourKey);
  const sealed = Buffer.alloc(encryptor.maxEncryptedLength(FRAME.length));
  const plain = Buffer.alloc(sealed.length);
  return () => {
    const encrypted = encryptor.encrypt(FRAME, sealed);
    if (!encrypted.ok) throw new Error(`encrypt failed: ${encrypted.code}`);
    const decrypted = decryptor.decrypt(sealed.subarray(0, encrypted.length), plain);
    if (!decrypted.ok) throw new Error(`decrypt failed: ${decrypted.code}`);
  };
}

/** One encryptOpus by one davey member + decrypt by another, as discord.js uses davey. */
function davey(): () => void {
  const sender = String(group.peerUserId);
  return () => {
    group.davey.decrypt(sender, AUDIO, group.daveyPeer.encryptOpus(FRAME));
  };
}

const native = nsPerCallInterleaved(ROUNDS, ours('native'), davey());
report(result('dave-frame', 'ns', native.ours, '@snazzah/davey', native.peer));
const js = nsPerCallInterleaved(ROUNDS, ours('js'), davey());
report(result('dave-frame-js', 'ns', js.ours, '@snazzah/davey', js.peer));
