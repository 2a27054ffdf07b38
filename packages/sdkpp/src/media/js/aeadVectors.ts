import type { AeadAlgorithm } from '../aead.js';

/** One published AEAD known-answer vector; byte fields are lower-case hex, sealed = ciphertext + tag. */
export interface AeadKnownAnswerVector {
  /** A short identifier of the vector. */
  readonly name: string;
  /** Where the vector was published. */
  readonly source: string;
  /** The algorithm it is for. */
  readonly algorithm: AeadAlgorithm;
  /** The key, as hex. */
  readonly key: string;
  /** The nonce, as hex. */
  readonly nonce: string;
  /** The additional authenticated data, as hex. */
  readonly aad: string;
  /** The plaintext, as hex. */
  readonly plaintext: string;
  /** The expected ciphertext, as hex. */
  readonly ciphertext: string;
  /** The expected tag, as hex. */
  readonly tag: string;
}

/**
 * The JS engine's copy of test/vectors/aead.json, kept here so the self-test needs no file access at run
 * time (the package may be bundled). A test keeps it equal to the JSON, as another does the C++ copy.
 */
export const AEAD_KNOWN_ANSWER_VECTORS: readonly AeadKnownAnswerVector[] = [
  {
    name: 'gcm-spec-test-case-13',
    source:
      'McGrew & Viega, The Galois/Counter Mode of Operation (GCM), Test Case 13 (256-bit key, empty plaintext)',
    algorithm: 'aes-256-gcm',
    key: '0000000000000000000000000000000000000000000000000000000000000000',
    nonce: '000000000000000000000000',
    aad: '',
    plaintext: '',
    ciphertext: '',
    tag: '530f8afbc74536b9a963b4f1c4cb738b',
  },
  {
    name: 'gcm-spec-test-case-14',
    source: 'McGrew & Viega, The Galois/Counter Mode of Operation (GCM), Test Case 14 (256-bit key)',
    algorithm: 'aes-256-gcm',
    key: '0000000000000000000000000000000000000000000000000000000000000000',
    nonce: '000000000000000000000000',
    aad: '',
    plaintext: '00000000000000000000000000000000',
    ciphertext: 'cea7403d4d606b6e074ec5d3baf39d18',
    tag: 'd0d1c8a799996bf0265b98b5d48ab919',
  },
  {
    name: 'gcm-spec-test-case-16',
    source:
      'McGrew & Viega, The Galois/Counter Mode of Operation (GCM), Test Case 16 (256-bit key, AAD, 60-byte plaintext)',
    algorithm: 'aes-256-gcm',
    key: 'feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308',
    nonce: 'cafebabefacedbaddecaf888',
    aad: 'feedfacedeadbeeffeedfacedeadbeefabaddad2',
    plaintext:
      'd9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39',
    ciphertext:
      '522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662',
    tag: '76fc6ece0f4e1768cddf8853bb2d551b',
  },
  {
    name: 'rfc8439-2.8.2',
    source: 'RFC 8439, section 2.8.2 (Example and Test Vector for AEAD_CHACHA20_POLY1305)',
    algorithm: 'chacha20-poly1305',
    key: '808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f',
    nonce: '070000004041424344454647',
    aad: '50515253c0c1c2c3c4c5c6c7',
    plaintext:
      '4c616469657320616e642047656e746c656d656e206f662074686520636c617373206f66202739393a204966204920636f756c64206f6666657220796f75206f6e6c79206f6e652074697020666f7220746865206675747572652c2073756e73637265656e20776f756c642062652069742e',
    ciphertext:
      'd31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc3ff4def08e4b7a9de576d26586cec64b6116',
    tag: '1ae10b594f09e26a7e902ecbd0600691',
  },
];
