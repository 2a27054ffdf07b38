#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/result_counters.h"

namespace sdkpp::dave {

// Every outcome of encrypting or decrypting one DAVE media frame. Malformed or hostile frames are never an
// exception or a crash: they are one of these codes, counted by the encryptor or decryptor. Values are
// stable: they cross the addon boundary as numbers, and src/media/dave/types.ts lists the same names in
// the same order.
enum class Result : uint8_t {
    kOk = 0,
    // Success without crypto: the frame was copied unchanged (the Opus silence frame, or passthrough mode
    // for a call that is not end-to-end encrypted, or not yet).
    kPassthrough,
    // Shorter than the smallest DAVE footer (11 bytes) while passthrough is off.
    kFrameTooShort,
    // No 0xFAFA marker at the end: a plain frame while passthrough is off.
    kBadMarker,
    // The supplemental size byte is below 11 or larger than the frame.
    kBadSupplementalSize,
    // The nonce is not a valid ULEB128 inside the footer, or exceeds 32 bits.
    kBadNonce,
    // The unencrypted ranges are bad ULEB128, overlapping, out of order or past the end of the frame (or,
    // when encrypting, too many to fit the one-byte supplemental size).
    kBadRanges,
    // The 8-byte tag does not match: wrong key, or any altered byte.
    kAuthenticationFailed,
    // The nonce was already accepted, or is older than the replay window.
    kReplayedNonce,
    // The frame's key generation is more than 250 ahead of the newest one seen.
    kGenerationTooFarAhead,
    // The frame's generation or epoch key was erased (kept 10 s after it was superseded).
    kKeyExpired,
    // No key ratchet has been given (and passthrough is off).
    kNoKey,
    // The caller's output buffer is smaller than the frame needs.
    kOutputTooSmall,
    // Input and output share memory other than exactly in place.
    kOverlappingBuffers,
    // The crypto library failed unexpectedly.
    kBackendError,
};

inline constexpr size_t kResultCount = static_cast<size_t>(Result::kBackendError) + 1;

// The stable name, e.g. "ERR_DAVE_REPLAYED_NONCE" ("OK", "PASSTHROUGH" for the two successes).
std::string_view ResultName(Result result) noexcept;

inline bool Succeeded(Result result) noexcept
{
    return result == Result::kOk || result == Result::kPassthrough;
}

// How many times each result occurred; the owner is single-threaded.
using FrameCounters = ResultCounters<Result, kResultCount>;

} // namespace sdkpp::dave
