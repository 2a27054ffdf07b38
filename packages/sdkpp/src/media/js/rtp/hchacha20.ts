// HChaCha20 (draft-irtf-cfrg-xchacha §2.2): node:crypto has ChaCha20-Poly1305 but no XChaCha20, so the
// JS engine derives each message's subkey itself, as native/core/crypto/hchacha20.cc does.

const SIGMA = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574] as const;

function rotl(value: number, bits: number): number {
  return ((value << bits) | (value >>> (32 - bits))) >>> 0;
}

function quarterRound(x: Uint32Array, a: number, b: number, c: number, d: number): void {
  // Locals keep the arithmetic plain; `?? 0` never applies, as every index is 0..15.
  let va = x[a] ?? 0;
  let vb = x[b] ?? 0;
  let vc = x[c] ?? 0;
  let vd = x[d] ?? 0;
  va = (va + vb) >>> 0;
  vd = rotl(vd ^ va, 16);
  vc = (vc + vd) >>> 0;
  vb = rotl(vb ^ vc, 12);
  va = (va + vb) >>> 0;
  vd = rotl(vd ^ va, 8);
  vc = (vc + vd) >>> 0;
  vb = rotl(vb ^ vc, 7);
  x[a] = va;
  x[b] = vb;
  x[c] = vc;
  x[d] = vd;
}

/**
 * The 32-byte subkey for a 32-byte key and the first 16 bytes of an XChaCha20 nonce.
 * @param key - 32 bytes. @param input - 16 bytes. The caller checks both sizes.
 */
export function hchacha20(key: Uint8Array, input: Uint8Array): Buffer {
  const keyView = new DataView(key.buffer, key.byteOffset, 32);
  const inputView = new DataView(input.buffer, input.byteOffset, 16);
  const x = new Uint32Array(16);
  x.set(SIGMA, 0);
  for (let i = 0; i < 8; i++) x[4 + i] = keyView.getUint32(4 * i, true);
  for (let i = 0; i < 4; i++) x[12 + i] = inputView.getUint32(4 * i, true);
  for (let round = 0; round < 10; round++) {
    quarterRound(x, 0, 4, 8, 12);
    quarterRound(x, 1, 5, 9, 13);
    quarterRound(x, 2, 6, 10, 14);
    quarterRound(x, 3, 7, 11, 15);
    quarterRound(x, 0, 5, 10, 15);
    quarterRound(x, 1, 6, 11, 12);
    quarterRound(x, 2, 7, 8, 13);
    quarterRound(x, 3, 4, 9, 14);
  }
  const out = Buffer.alloc(32);
  for (let i = 0; i < 4; i++) {
    out.writeUInt32LE(x[i] ?? 0, 4 * i);
    out.writeUInt32LE(x[12 + i] ?? 0, 16 + 4 * i);
  }
  x.fill(0);
  return out;
}
