import { createDecipheriv, createSecretKey, type KeyObject } from 'node:crypto';

import { DAVE_KEY_RETENTION_MS, DAVE_MAX_GENERATION_GAP, type DaveResultCode } from '../types.js';
import { encryptedSpans, clearBytes, nonceToIv, TAG_SIZE, type ParsedFrame } from './frame.js';
import { HashRatchet } from './hashRatchet.js';
import { ReplayWindow } from './replayWindow.js';

const GENERATION_SHIFT = 2 ** 24;
const GENERATION_WRAP = 256;
// The 256 values of a frame's 8-bit generation cover newest - 5 .. newest + 250.
const GENERATIONS_BEHIND = GENERATION_WRAP - 1 - DAVE_MAX_GENERATION_GAP;
const SLOTS = 4;

interface Slot {
  readonly generation: number;
  expiry: number;
  readonly key: KeyObject;
}

/**
 * One remote sender's keys for one epoch, as native/core/dave/epoch_keys.h: the ratchet, the keys of
 * the generations in use (each erased 10 s after a newer one first decrypts), and the replay window.
 */
export class EpochKeys {
  /** When the whole epoch stops decrypting (10 s after a newer epoch arrives). */
  expiry = Infinity;
  #ratchet: HashRatchet;
  readonly #slots: Slot[] = [];
  readonly #replay = new ReplayWindow();
  #anyDecrypted = false;
  #newestGeneration = 0;

  /** @param baseSecret - The sender's 16-byte key for this epoch. */
  constructor(baseSecret: Uint8Array) {
    this.#ratchet = new HashRatchet(baseSecret);
  }

  /** Erases the generations whose retention has passed. */
  dropExpired(now: number): void {
    for (let i = this.#slots.length - 1; i >= 0; i--) {
      if ((this.#slots[i]?.expiry ?? 0) <= now) this.#slots.splice(i, 1);
    }
  }

  /** Authenticates and decrypts into `out`; on failure nothing is written. */
  decrypt(parsed: ParsedFrame, frame: Uint8Array, out: Uint8Array, now: number): DaveResultCode | null {
    const generation = this.#unwrap(parsed.nonce);
    if (generation > this.#newestGeneration + DAVE_MAX_GENERATION_GAP) {
      return 'ERR_DAVE_GENERATION_TOO_FAR_AHEAD';
    }
    const fullNonce = generation * GENERATION_SHIFT + (parsed.nonce % GENERATION_SHIFT);
    if (!this.#replay.canAccept(fullNonce)) return 'ERR_DAVE_REPLAYED_NONCE';
    let key = this.#slots.find((slot) => slot.generation === generation)?.key;
    let trial: HashRatchet | null = null;
    if (key === undefined) {
      if (generation < this.#ratchet.nextGeneration) return 'ERR_DAVE_KEY_EXPIRED';
      // Derive on a copy: a forged frame naming a later generation must not move the real ratchet.
      trial = this.#ratchet.clone();
      key = createSecretKey(trial.advanceTo(generation));
    }
    const interleaved = frame.subarray(0, parsed.interleavedLength);
    let plaintext: Buffer;
    try {
      const decipher = createDecipheriv('aes-128-gcm', key, nonceToIv(parsed.nonce), {
        authTagLength: TAG_SIZE,
      });
      decipher.setAuthTag(parsed.tag);
      if (parsed.ranges.length > 0) decipher.setAAD(clearBytes(interleaved, parsed.ranges));
      const spans = encryptedSpans(parsed.ranges, interleaved.length);
      plaintext = Buffer.concat([
        ...spans.map(({ offset, size }) => decipher.update(interleaved.subarray(offset, offset + size))),
        decipher.final(),
      ]);
      // Authenticated: only now may bytes reach `out`; the clear ranges are already there when in place.
      let position = 0;
      for (const { offset, size } of spans) {
        out.set(plaintext.subarray(position, position + size), offset);
        position += size;
      }
      if (out.buffer !== frame.buffer || out.byteOffset !== frame.byteOffset) {
        for (const { offset, size } of parsed.ranges)
          out.set(interleaved.subarray(offset, offset + size), offset);
      }
      plaintext.fill(0);
    } catch {
      // node:crypto reports a wrong tag only by throwing from final(); nothing reached `out`.
      return 'ERR_DAVE_AUTHENTICATION_FAILED';
    }
    if (trial !== null) {
      this.#ratchet = trial;
      if (this.#slots.length === SLOTS) {
        const oldest = this.#slots.reduce((a, b) => (b.generation < a.generation ? b : a));
        this.#slots.splice(this.#slots.indexOf(oldest), 1);
      }
      this.#slots.push({ generation, expiry: Infinity, key });
    }
    this.#replay.accept(fullNonce);
    if (!this.#anyDecrypted || generation > this.#newestGeneration) {
      this.#anyDecrypted = true;
      this.#newestGeneration = generation;
      for (const slot of this.#slots) {
        if (slot.generation < generation && slot.expiry === Infinity)
          slot.expiry = now + DAVE_KEY_RETENTION_MS;
      }
    }
    return null;
  }

  #unwrap(nonce: number): number {
    const low = Math.floor(nonce / GENERATION_SHIFT);
    const floor = Math.max(0, this.#newestGeneration - GENERATIONS_BEHIND);
    let generation = floor - (floor % GENERATION_WRAP) + low;
    if (generation < floor) generation += GENERATION_WRAP;
    return generation;
  }
}
