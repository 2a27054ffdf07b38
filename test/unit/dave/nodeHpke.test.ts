import { createECDH, createPublicKey, randomBytes } from 'node:crypto';

import { beforeAll, describe, expect, it } from 'vitest';
import type { Hpke } from 'ts-mls';

import { nodeHpkeP256 } from '../../../packages/protocol/src/dave/nodeHpke.js';
import { loadTsMls } from '../../../packages/protocol/src/dave/tsMls.js';

// Our node:crypto HPKE (cipher suite 2) against ts-mls's default, @hpke/core: each side opens what the
// other sealed, exported secrets agree, DeriveKeyPair gives the same keys, and tampering is refused.

let theirs: Hpke;
const ours = nodeHpkeP256;
beforeAll(async () => {
  const mls = await loadTsMls();
  theirs = (await mls.getCiphersuiteImpl('MLS_128_DHKEMP256_AES128GCM_SHA256_P256')).hpke;
});

/* eslint-disable @typescript-eslint/no-unsafe-assignment -- ts-mls's HPKE key types are DOM CryptoKeys,
   unresolved in this Node build (see src/protocol/dave/nodeHpke.ts) */
/** A recipient key pair made by `maker`, with its serialised keys imported by `user`. */
async function recipient(maker: Hpke, user: Hpke) {
  const pair = await maker.generateKeyPair();
  const publicBytes = await maker.exportPublicKey(pair.publicKey);
  const privateBytes = await maker.exportPrivateKey(pair.privateKey);
  expect(publicBytes).toHaveLength(65);
  expect(privateBytes).toHaveLength(32);
  return {
    makerPrivate: pair.privateKey,
    userPublic: await user.importPublicKey(publicBytes),
    userPrivate: await user.importPrivateKey(privateBytes),
    makerPublic: pair.publicKey,
  };
}

describe.each([
  ['ours seals, @hpke/core opens', () => ours, () => theirs],
  ['@hpke/core seals, ours opens', () => theirs, () => ours],
])('%s', (_name, sealer, opener) => {
  it('seal / open with info and aad', async () => {
    for (let i = 0; i < 10; i++) {
      const keys = await recipient(opener(), sealer());
      const plaintext = randomBytes(i * 37);
      const info = randomBytes(i);
      const aad = randomBytes(5);
      const { ct, enc } = await sealer().seal(keys.userPublic, plaintext, info, aad);
      expect(Buffer.from(await opener().open(keys.makerPrivate, enc, ct, info, aad))).toEqual(plaintext);
      const bad = Uint8Array.from(ct);
      bad[0] = (bad[0] ?? 0) ^ 1;
      await expect(opener().open(keys.makerPrivate, enc, bad, info, aad)).rejects.toThrow();
    }
  });

  it('exported secrets agree', async () => {
    const keys = await recipient(opener(), sealer());
    const context = randomBytes(20);
    const info = randomBytes(3);
    const { enc, secret } = await sealer().exportSecret(keys.userPublic, context, 32, info);
    expect(await opener().importSecret(keys.makerPrivate, context, enc, 32, info)).toEqual(secret);
  });

  it('AEAD', async () => {
    const key = randomBytes(16);
    const nonce = randomBytes(12);
    const sealed = await sealer().encryptAead(key, nonce, randomBytes(0), Buffer.from('hello'));
    expect(Buffer.from(await opener().decryptAead(key, nonce, randomBytes(0), sealed))).toEqual(
      Buffer.from('hello'),
    );
  });
});

it('DeriveKeyPair gives the same keys as @hpke/core', async () => {
  for (let i = 0; i < 20; i++) {
    const ikm = randomBytes(32);
    const a = await ours.deriveKeyPair(ikm);
    const b = await theirs.deriveKeyPair(ikm);
    expect(await ours.exportPublicKey(a.publicKey)).toEqual(await theirs.exportPublicKey(b.publicKey));
    expect(await ours.exportPrivateKey(a.privateKey)).toEqual(await theirs.exportPrivateKey(b.privateKey));
  }
});

it('refuses points off the curve', async () => {
  const point = Buffer.alloc(65, 7);
  point[0] = 4;
  await expect(ours.importPublicKey(point)).rejects.toThrow();
  await expect(ours.importPublicKey(point.subarray(0, 33))).rejects.toThrow();
});

it('takes a point exactly when OpenSSL takes it (on the curve, coordinates below p)', async () => {
  const spki = (p: Uint8Array): Buffer =>
    Buffer.concat([Buffer.from('3059301306072a8648ce3d020106082a8648ce3d030107034200', 'hex'), p]);
  const openssl = (p: Uint8Array): boolean => {
    try {
      createPublicKey({ key: spki(p), format: 'der', type: 'spki' });
      return true;
    } catch {
      return false;
    }
  };
  const prime = BigInt('0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff');
  const candidates: Buffer[] = [];
  for (let i = 0; i < 50; i++) {
    const valid = createECDH('prime256v1').generateKeys();
    candidates.push(valid);
    const yNegated = Buffer.from(valid);
    const y = BigInt(`0x${valid.subarray(33).toString('hex')}`);
    yNegated.set(Buffer.from((prime - y).toString(16).padStart(64, '0'), 'hex'), 33);
    candidates.push(yNegated); // (x, −y) is on the curve too
    const nudged = Buffer.from(valid);
    nudged[64] = (nudged[64] ?? 0) ^ 1;
    candidates.push(nudged);
  }
  // A coordinate of p or more is out of range, whatever the equation says of it modulo p.
  const real = candidates[0] ?? Buffer.alloc(65);
  const atP = Buffer.from(real);
  atP.set(Buffer.from(prime.toString(16), 'hex'), 1);
  candidates.push(atP);
  let accepted = 0;
  for (const point of candidates) {
    const theirs = openssl(point);
    const mine = await ours.importPublicKey(point).then(
      () => true,
      () => false,
    );
    expect(mine, point.toString('hex')).toBe(theirs);
    if (mine) accepted++;
  }
  expect(accepted).toBe(100);
});
