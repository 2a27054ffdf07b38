import { expandWithLabel } from './hkdf.js';

const KEY_SIZE = 16;
const SECRET_SIZE = 32;

/**
 * One sender's hash ratchet for one epoch, as native/core/dave/key_ratchet.h (mlspp's HashRatchet):
 * key_g = ExpandWithLabel(secret_g, "key", BE32(g), 16), secret_{g+1} = ExpandWithLabel(secret_g,
 * "secret", BE32(g), 32), secret_0 = the 16-byte base secret. Forward only; {@link HashRatchet.clone}
 * lets a decryptor try a generation without moving the real one.
 */
export class HashRatchet {
  #secret: Buffer;
  #next: number;

  /** @param base - The 16-byte sender key (checked by the caller). */
  constructor(base: Uint8Array, next = 0) {
    this.#secret = Buffer.from(base);
    this.#next = next;
  }

  /** The generation the next derivation gives; earlier ones are gone. */
  get nextGeneration(): number {
    return this.#next;
  }

  /** A copy to derive on. */
  clone(): HashRatchet {
    return new HashRatchet(this.#secret, this.#next);
  }

  /** The key of `generation` (>= nextGeneration); moves past it, dropping skipped keys. */
  advanceTo(generation: number): Buffer {
    if (generation < this.#next) throw new RangeError('The ratchet has moved past this generation');
    for (;;) {
      const context = Buffer.alloc(4);
      context.writeUInt32BE(this.#next >>> 0);
      const key = generation === this.#next ? expandWithLabel(this.#secret, 'key', context, KEY_SIZE) : null;
      const successor = expandWithLabel(this.#secret, 'secret', context, SECRET_SIZE);
      this.#secret.fill(0);
      this.#secret = successor;
      this.#next++;
      if (key !== null) return key;
    }
  }
}
