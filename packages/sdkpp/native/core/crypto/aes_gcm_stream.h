#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/span.h"

namespace sdkpp::crypto {

inline constexpr size_t kAes128KeySize = 16;
inline constexpr size_t kGcmIvSize = 12;
inline constexpr size_t kGcmMaxTagSize = 16;

// AES-128-GCM fed in pieces, for DAVE frames (native/core/dave): their additional data and ciphertext are
// interleaved ranges of one frame, and feeding them range by range lets a frame be sealed or opened
// straight into the caller's buffer with no gathering copy. IAeadCipher (aead.h) takes contiguous inputs
// and a fixed 16-byte tag, so it cannot serve here; this is the second, equally small, backend seam.
//
// One message is Begin, every Aad piece, every Update piece, then Finish (seal) or Verify (open). Tags may
// be truncated (DAVE uses 8 bytes). Update may run exactly in place. The key schedule is kept across
// messages; nothing allocates after Create. Not thread-safe.
class IGcmStream {
public:
    virtual ~IGcmStream() = default;

    // Exactly kAes128KeySize bytes, else false and the previous key stays.
    virtual bool SetKey(ByteView key) noexcept = 0;
    virtual bool Begin(const uint8_t (&iv)[kGcmIvSize], bool encrypt) noexcept = 0;
    virtual bool Aad(ByteView piece) noexcept = 0;
    // Writes piece.size() bytes to `out`.
    virtual bool Update(ByteView piece, uint8_t* out) noexcept = 0;
    // Sealing: writes the first tag.size() (4..16) bytes of the tag.
    virtual bool Finish(MutableByteView tag) noexcept = 0;
    // Opening: true only when the truncated tag matches.
    virtual bool Verify(ByteView tag) noexcept = 0;
};

// nullptr when the backend cannot make a context (out of memory).
std::unique_ptr<IGcmStream> CreateAes128GcmStream() noexcept;

} // namespace sdkpp::crypto
