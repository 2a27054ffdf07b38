#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "core/crypto/aead.h"
#include "core/crypto/xchacha20_poly1305.h"
#include "core/rtp/result.h"
#include "core/rtp/rtp_header.h"
#include "core/span.h"

namespace sdkpp::rtp {

// The voice transport encryption modes (wire-protocols.md §2.6). Values are stable across the addon.
enum class TransportMode : uint8_t {
    kAeadAes256GcmRtpSize = 0,
    kAeadXChaCha20Poly1305RtpSize = 1,
};

inline constexpr size_t kTransportKeySize = 32;
inline constexpr size_t kTransportTagSize = 16;
inline constexpr size_t kTransportNonceSuffixSize = 4;
// What sealing adds after the plaintext: the tag, then the 32-bit nonce counter.
inline constexpr size_t kTransportOverhead = kTransportTagSize + kTransportNonceSuffixSize;

// "aead_aes256_gcm_rtpsize" / "aead_xchacha20_poly1305_rtpsize"; empty for an unknown value.
std::string_view TransportModeName(TransportMode mode) noexcept;
bool ParseTransportMode(std::string_view name, TransportMode* mode) noexcept;

// What Open found, with offsets into the caller's plaintext buffer.
struct OpenedPacket {
    RtpHeader header;
    uint32_t nonce = 0;          // the packet's 32-bit counter
    size_t plaintextSize = 0;    // extension body || payload || padding
    size_t extensionOffset = 0;  // the decrypted extension body, if X was set
    size_t extensionSize = 0;
    size_t payloadOffset = 0;    // the payload (Opus, or a DAVE frame), padding removed
    size_t payloadSize = 0;
};

// One connection's transport encryption, "rtpsize" style: the clear RTP header (12 + 4*CC, plus the
// 4-byte extension preamble when X is set) is the AAD, the extension body and the payload are encrypted,
// and the packet ends with the 16-byte tag and the 32-bit nonce counter, big-endian. The AEAD nonce is
// that counter in its first 4 bytes, zero-filled to 12 (AES-256-GCM) or 24 (XChaCha20-Poly1305) bytes.
//
// Buffers belong to the caller and no call allocates. Every Open outcome is counted in Counters(). Not
// thread-safe: one per transport thread.
class TransportCryptor {
public:
    static std::unique_ptr<TransportCryptor> Create(TransportMode mode,
                                                    ByteView key,
                                                    Result* result = nullptr) noexcept;

    TransportMode Mode() const noexcept { return mode_; }

    // ClearHeaderSize + extension body + payload + padding + kTransportOverhead; kInvalidHeader for an
    // impossible header.
    static Result SealedSize(const RtpHeader& header, size_t payloadSize, size_t* size) noexcept;

    // Seals one packet with an explicit nonce counter. `extensionBody` must be ExtensionBodySize(header)
    // bytes (kInvalidHeader otherwise); `header.paddingSize` bytes of padding (zeros, then the count) are
    // appended to the payload before encryption. The payload may already sit at its final place in `out`
    // (out + ClearHeaderSize + extension size); any other overlap with `out` is kOverlappingBuffers.
    Result Seal(const RtpHeader& header,
                ByteView extensionBody,
                ByteView payload,
                uint32_t nonce,
                MutableByteView out,
                size_t* written) noexcept;

    // Seal with the connection's counter: incremented before use (the first packet carries 1) and
    // wrapping from 2^32-1 to 0, as the reference clients do. The counter only advances on success.
    Result SealNext(const RtpHeader& header,
                    ByteView extensionBody,
                    ByteView payload,
                    MutableByteView out,
                    size_t* written) noexcept;

    // The counter SealNext used last (0 before the first packet).
    uint32_t LastNonce() const noexcept { return nonce_; }

    // Authenticates and decrypts `packet` into `plaintext` (at least packet.size() - clear header - 20
    // bytes; exactly in place at packet + clear header is allowed). On any failure nothing unauthenticated
    // is left in `plaintext`'s used region and the result is counted.
    Result Open(ByteView packet, MutableByteView plaintext, OpenedPacket* opened) noexcept;

    // The largest plaintext Open can produce from a packet of `packetSize` bytes (0 when too short).
    static size_t MaxPlaintextSize(size_t packetSize) noexcept;

    const PacketCounters& Counters() const noexcept { return counters_; }
    uint64_t SealedCount() const noexcept { return sealed_; }

private:
    TransportCryptor(TransportMode mode,
                     std::unique_ptr<crypto::IAeadCipher> aes,
                     std::unique_ptr<crypto::XChaCha20Poly1305> xchacha) noexcept;
    Result OpenUncounted(ByteView packet, MutableByteView plaintext, OpenedPacket* opened) noexcept;
    Result SealAead(uint32_t nonce, ByteView aad, ByteView plaintext, MutableByteView sealed) noexcept;
    Result OpenAead(uint32_t nonce, ByteView aad, ByteView sealed, MutableByteView plaintext) noexcept;

    const TransportMode mode_;
    std::unique_ptr<crypto::IAeadCipher> aes_;
    std::unique_ptr<crypto::XChaCha20Poly1305> xchacha_;
    uint32_t nonce_ = 0;
    uint64_t sealed_ = 0;
    PacketCounters counters_;
};

} // namespace sdkpp::rtp
