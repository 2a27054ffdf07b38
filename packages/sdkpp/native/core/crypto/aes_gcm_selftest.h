#pragma once

namespace sdkpp::crypto {

// NIST's AES-128-GCM test case 4 (60-byte text, 20-byte AAD), through the stream CreateAes128GcmStream
// picks, sealed and opened in uneven pieces.
bool GcmStreamKnownAnswer() noexcept;

// Where the CPU-instruction backend runs: it and OpenSSL give the same ciphertext and tag, and accept and
// refuse the same tags, for messages of random sizes fed in random pieces. True where it does not run
// (there is then only one backend).
bool GcmStreamBackendsAgree() noexcept;

} // namespace sdkpp::crypto
