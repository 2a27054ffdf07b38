// A slow interop check, run by hand (about a minute): `npx tsx test/interop/generationOne.ts`.
// davey refuses frames of any generation above 0 for ~27 h after a ratchet is made, so the only way to
// check our generation >= 1 keys against an independent implementation is the other direction: davey
// encrypts 2^24 + k Opus frames (its nonce then carries generation 1) and both our engines decrypt the
// last ones with the sender key from the MLS exporter. Prints one line per engine; exits 1 on a mismatch.
import { randomBytes } from 'node:crypto';

import { createMediaEngine, type MediaEngineKind } from '../../packages/sdkpp/src/media/index.js';
import { createDaveTestGroup } from './daveGroup.js';

const GENERATION = 2 ** 24;
const group = await createDaveTestGroup();
const frame = randomBytes(20);
const started = Date.now();
for (let i = 1; i < GENERATION - 1; i++) group.davey.encryptOpus(frame);
const lastOfGeneration0 = group.davey.encryptOpus(frame); // nonce 2^24 - 1
const generation1 = [0, 1, 2].map(() => group.davey.encryptOpus(frame)); // nonces 2^24 .. 2^24 + 2
console.log(`davey encrypted ${GENERATION + 2} frames in ${((Date.now() - started) / 1000).toFixed(1)} s`);

let failed = false;
for (const kind of ['native', 'js'] as MediaEngineKind[]) {
  const decryptor = createMediaEngine({ prefer: kind }).createDaveDecryptor();
  decryptor.transitionToKeyRatchet(group.daveyKey);
  const out = Buffer.alloc(64);
  const results = [lastOfGeneration0, ...generation1].map((sealed) => decryptor.decrypt(sealed, out));
  const ok = results.every((r) => r.ok && r.length === frame.length) && out.subarray(0, 20).equals(frame);
  console.log(`${kind}: ${ok ? 'generation 0 and 1 frames decrypted' : `FAILED ${JSON.stringify(results)}`}`);
  failed ||= !ok;
}
process.exit(failed ? 1 : 0);
