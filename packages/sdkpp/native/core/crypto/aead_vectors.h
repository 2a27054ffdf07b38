#pragma once

// Published known-answer vectors, kept equal to test/vectors/aead.json by test/native/vectors.test.ts
// (which looks for every hex string of the JSON in this file, so keep each one on a single line).

#include <string_view>

#include "core/crypto/aead.h"

namespace sdkpp::crypto {

struct AeadKnownAnswer {
    std::string_view name;
    AeadAlgorithm algorithm;
    std::string_view key;
    std::string_view nonce;
    std::string_view aad;
    std::string_view plaintext;
    std::string_view ciphertext;
    std::string_view tag;
};

// The largest plaintext among the vectors below; the self-test's buffers are sized from it.
inline constexpr size_t kAeadKnownAnswerMaxPlaintext = 114;

inline constexpr AeadKnownAnswer kAeadKnownAnswers[] = {
  {
    "gcm-spec-test-case-13",
    AeadAlgorithm::kAes256Gcm,
    "0000000000000000000000000000000000000000000000000000000000000000",
    "000000000000000000000000",
    "",
    "",
    "",
    "530f8afbc74536b9a963b4f1c4cb738b",
  },
  {
    "gcm-spec-test-case-14",
    AeadAlgorithm::kAes256Gcm,
    "0000000000000000000000000000000000000000000000000000000000000000",
    "000000000000000000000000",
    "",
    "00000000000000000000000000000000",
    "cea7403d4d606b6e074ec5d3baf39d18",
    "d0d1c8a799996bf0265b98b5d48ab919",
  },
  {
    "gcm-spec-test-case-16",
    AeadAlgorithm::kAes256Gcm,
    "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308",
    "cafebabefacedbaddecaf888",
    "feedfacedeadbeeffeedfacedeadbeefabaddad2",
    "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
    "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
    "76fc6ece0f4e1768cddf8853bb2d551b",
  },
  {
    "rfc8439-2.8.2",
    AeadAlgorithm::kChaCha20Poly1305,
    "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f",
    "070000004041424344454647",
    "50515253c0c1c2c3c4c5c6c7",
    "4c616469657320616e642047656e746c656d656e206f662074686520636c617373206f66202739393a204966204920636f756c64206f6666657220796f75206f6e6c79206f6e652074697020666f7220746865206675747572652c2073756e73637265656e20776f756c642062652069742e",
    "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc3ff4def08e4b7a9de576d26586cec64b6116",
    "1ae10b594f09e26a7e902ecbd0600691",
  },
};

} // namespace sdkpp::crypto
