// Per-packet cost of the voice transport (seal and open of one 20 ms Opus-sized packet) in each engine
// and mode, called from JS, and the native engine's speed-up over the JS one. Run: npx tsx bench/transport.ts
import { randomBytes } from 'node:crypto';

import {
  createMediaEngine,
  TRANSPORT_ENCRYPTION_MODES,
  type MediaEngineKind,
  type TransportEncryptionMode,
} from '../src/media/index.js';

const PACKETS = 50_000;
const WARM_UP = 2_000;
const PAYLOAD = randomBytes(120); // a typical 64 kbit/s Opus frame
const HEADER = { sequence: 1, timestamp: 960, ssrc: 0x12345678 };

/** Microseconds per seal and per open. */
function measure(kind: MediaEngineKind, mode: TransportEncryptionMode): { seal: number; open: number } {
  const cryptor = createMediaEngine({ prefer: kind }).createTransportCryptor(mode, randomBytes(32));
  const packet = Buffer.alloc(cryptor.sealedLength(HEADER, PAYLOAD.length));
  const plaintext = Buffer.alloc(packet.length);
  for (let i = 0; i < WARM_UP; i++) cryptor.seal(HEADER, PAYLOAD, packet);
  let start = process.hrtime.bigint();
  for (let i = 0; i < PACKETS; i++) cryptor.seal(HEADER, PAYLOAD, packet);
  const seal = Number(process.hrtime.bigint() - start) / PACKETS / 1000;
  start = process.hrtime.bigint();
  for (let i = 0; i < PACKETS; i++) cryptor.open(packet, plaintext);
  const open = Number(process.hrtime.bigint() - start) / PACKETS / 1000;
  return { seal, open };
}

for (const mode of TRANSPORT_ENCRYPTION_MODES) {
  const native = measure('native', mode);
  const js = measure('js', mode);
  const format = (value: number): string => `${value.toFixed(2)} µs`;
  console.log(
    `${mode.padEnd(32)} seal native ${format(native.seal)}, js ${format(js.seal)} ` +
      `(×${(js.seal / native.seal).toFixed(1)}); open native ${format(native.open)}, ` +
      `js ${format(js.open)} (×${(js.open / native.open).toFixed(1)})`,
  );
}
