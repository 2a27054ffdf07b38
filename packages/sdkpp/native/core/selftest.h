#pragma once

#include <cstddef>
#include <cstdint>

#include "core/crypto/aead.h"

namespace sdkpp {

// Which of the three checks an algorithm passed. A backend that links but computes wrong answers (a
// mismatched OpenSSL, a broken build) fails here instead of on the wire.
struct AeadSelfTestResult {
    crypto::AeadAlgorithm algorithm = crypto::AeadAlgorithm::kAes256Gcm;
    bool knownAnswer = false;      // every published vector seals and opens byte-exact
    bool roundTrip = false;        // random keys, nonces, AAD and lengths (0, 1, random) survive seal + open
    bool rejectsTampering = false; // flipped ciphertext, tag and AAD bits fail and leave zeroed output
    bool Ok() const noexcept { return knownAnswer && roundTrip && rejectsTampering; }
};

struct CryptoSelfTestReport {
    // One entry per algorithm the backend supports, in kAeadAlgorithms order.
    AeadSelfTestResult results[crypto::kAeadAlgorithmCount];
    size_t count = 0;
    bool Ok() const noexcept;
};

// The seed only drives the round-trip and tamper data; the same seed repeats the same run.
AeadSelfTestResult RunAeadSelfTest(crypto::AeadAlgorithm algorithm, uint64_t seed) noexcept;
CryptoSelfTestReport RunCryptoSelfTest(uint64_t seed) noexcept;
// Seeds from the clock, so that repeated runs cover different lengths.
CryptoSelfTestReport RunCryptoSelfTest() noexcept;

} // namespace sdkpp
