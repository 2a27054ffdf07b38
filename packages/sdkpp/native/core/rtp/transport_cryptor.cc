#include "core/rtp/transport_cryptor.h"

#include <cstring>
#include <new>

#include "core/rtp/byte_order.h"

namespace sdkpp::rtp {
namespace {

using crypto::AeadResult;

constexpr std::string_view kAesName = "aead_aes256_gcm_rtpsize";
constexpr std::string_view kXChaChaName = "aead_xchacha20_poly1305_rtpsize";
constexpr size_t kAesNonceSize = 12;

void Report(Result* out, Result value) noexcept
{
    if (out != nullptr) {
        *out = value;
    }
}

Result FromAead(AeadResult result) noexcept
{
    switch (result) {
    case AeadResult::kSuccess:
        return Result::kOk;
    case AeadResult::kAuthenticationFailed:
        return Result::kAuthenticationFailed;
    case AeadResult::kOutputTooSmall:
        return Result::kOutputTooSmall;
    case AeadResult::kOverlappingBuffers:
        return Result::kOverlappingBuffers;
    case AeadResult::kInvalidKeySize:
        return Result::kInvalidKeySize;
    case AeadResult::kUnsupportedAlgorithm:
        return Result::kUnsupportedMode;
    case AeadResult::kCiphertextTooShort:
        return Result::kPacketTooShort;
    case AeadResult::kInvalidNonceSize:
    case AeadResult::kInputTooLarge:
    case AeadResult::kBackendError:
        break;
    }
    return Result::kBackendError;
}

// True when the two regions share at least one byte.
bool Overlap(const uint8_t* a, size_t aSize, const uint8_t* b, size_t bSize) noexcept
{
    if (aSize == 0 || bSize == 0) {
        return false;
    }
    const auto x = reinterpret_cast<uintptr_t>(a);
    const auto y = reinterpret_cast<uintptr_t>(b);
    return x < y + bSize && y < x + aSize;
}

// An input may be in `out` only at the place it is copied to; there the copy is skipped.
bool PlacementOk(ByteView input, const uint8_t* target, MutableByteView out) noexcept
{
    return input.data() == target || !Overlap(input.data(), input.size(), out.data(), out.size());
}

void Move(uint8_t* target, ByteView source) noexcept
{
    if (!source.empty() && source.data() != target) {
        std::memmove(target, source.data(), source.size());
    }
}

} // namespace

std::string_view TransportModeName(TransportMode mode) noexcept
{
    switch (mode) {
    case TransportMode::kAeadAes256GcmRtpSize:
        return kAesName;
    case TransportMode::kAeadXChaCha20Poly1305RtpSize:
        return kXChaChaName;
    }
    return {};
}

bool ParseTransportMode(std::string_view name, TransportMode* mode) noexcept
{
    if (name == kAesName) {
        *mode = TransportMode::kAeadAes256GcmRtpSize;
        return true;
    }
    if (name == kXChaChaName) {
        *mode = TransportMode::kAeadXChaCha20Poly1305RtpSize;
        return true;
    }
    return false;
}

TransportCryptor::TransportCryptor(TransportMode mode,
                                   std::unique_ptr<crypto::IAeadCipher> aes,
                                   std::unique_ptr<crypto::XChaCha20Poly1305> xchacha) noexcept
  : mode_(mode), aes_(std::move(aes)), xchacha_(std::move(xchacha))
{
}

std::unique_ptr<TransportCryptor> TransportCryptor::Create(TransportMode mode,
                                                           ByteView key,
                                                           Result* result) noexcept
{
    if (TransportModeName(mode).empty()) {
        Report(result, Result::kUnsupportedMode);
        return nullptr;
    }
    if (key.size() != kTransportKeySize) {
        Report(result, Result::kInvalidKeySize);
        return nullptr;
    }
    AeadResult created = AeadResult::kBackendError;
    std::unique_ptr<crypto::IAeadCipher> aes;
    std::unique_ptr<crypto::XChaCha20Poly1305> xchacha;
    if (mode == TransportMode::kAeadAes256GcmRtpSize) {
        aes = crypto::CreateAeadCipher(crypto::AeadAlgorithm::kAes256Gcm, key, &created);
    } else {
        xchacha = crypto::XChaCha20Poly1305::Create(key, &created);
    }
    if (!aes && !xchacha) {
        Report(result, created == AeadResult::kSuccess ? Result::kBackendError : FromAead(created));
        return nullptr;
    }
    std::unique_ptr<TransportCryptor> cryptor(new (std::nothrow)
                                                TransportCryptor(mode, std::move(aes), std::move(xchacha)));
    Report(result, cryptor ? Result::kOk : Result::kBackendError);
    return cryptor;
}

Result TransportCryptor::SealedSize(const RtpHeader& header, size_t payloadSize, size_t* size) noexcept
{
    if (header.csrcCount > kMaxCsrcs || header.payloadType > 0x7F) {
        return Result::kInvalidHeader;
    }
    // RTP packets travel in UDP datagrams, so anything near this bound is a caller bug, and refusing it
    // keeps every sum below far from overflow and within the AEAD backend's int lengths.
    constexpr size_t kMaxPayload = 1 << 24;
    if (payloadSize > kMaxPayload) {
        return Result::kInvalidHeader;
    }
    *size = ClearHeaderSize(header) + ExtensionBodySize(header) + payloadSize + header.paddingSize +
            kTransportOverhead;
    return Result::kOk;
}

size_t TransportCryptor::MaxPlaintextSize(size_t packetSize) noexcept
{
    const size_t minimum = kFixedHeaderSize + kTransportOverhead;
    return packetSize < minimum ? 0 : packetSize - minimum;
}

Result TransportCryptor::SealAead(uint32_t nonce,
                                  ByteView aad,
                                  ByteView plaintext,
                                  MutableByteView sealed) noexcept
{
    uint8_t fullNonce[crypto::kXChaCha20Poly1305NonceSize] = {};
    StoreBe32(nonce, fullNonce);
    const AeadResult result = aes_ ? aes_->Seal({fullNonce, kAesNonceSize}, aad, plaintext, sealed, nullptr)
                                   : xchacha_->Seal(fullNonce, aad, plaintext, sealed, nullptr);
    return FromAead(result);
}

Result TransportCryptor::OpenAead(uint32_t nonce,
                                  ByteView aad,
                                  ByteView sealed,
                                  MutableByteView plaintext) noexcept
{
    uint8_t fullNonce[crypto::kXChaCha20Poly1305NonceSize] = {};
    StoreBe32(nonce, fullNonce);
    const AeadResult result = aes_ ? aes_->Open({fullNonce, kAesNonceSize}, aad, sealed, plaintext, nullptr)
                                   : xchacha_->Open(fullNonce, aad, sealed, plaintext, nullptr);
    return FromAead(result);
}

Result TransportCryptor::Seal(const RtpHeader& header,
                              ByteView extensionBody,
                              ByteView payload,
                              uint32_t nonce,
                              MutableByteView out,
                              size_t* written) noexcept
{
    if (written != nullptr) {
        *written = 0;
    }
    size_t sealedSize = 0;
    Result result = SealedSize(header, payload.size(), &sealedSize);
    if (result != Result::kOk) {
        return result;
    }
    const size_t clearSize = ClearHeaderSize(header);
    const size_t extensionSize = ExtensionBodySize(header);
    if (extensionBody.size() != extensionSize) {
        return Result::kInvalidHeader;
    }
    if (out.size() < sealedSize) {
        return Result::kOutputTooSmall;
    }
    uint8_t* const extensionTarget = out.data() + clearSize;
    uint8_t* const payloadTarget = extensionTarget + extensionSize;
    if (!PlacementOk(payload, payloadTarget, out) || !PlacementOk(extensionBody, extensionTarget, out) ||
        Overlap(extensionBody.data(), extensionBody.size(), payload.data(), payload.size())) {
        return Result::kOverlappingBuffers;
    }
    // The payload first: the extension body's target lies before it, never on it.
    Move(payloadTarget, payload);
    Move(extensionTarget, extensionBody);
    const size_t paddingSize = header.paddingSize;
    if (paddingSize > 0) {
        std::memset(payloadTarget + payload.size(), 0, paddingSize - 1);
        payloadTarget[payload.size() + paddingSize - 1] = header.paddingSize;
    }
    result = WriteClearHeader(header, out, nullptr);
    if (result != Result::kOk) {
        return result;
    }
    const size_t plaintextSize = extensionSize + payload.size() + paddingSize;
    const ByteView plaintext{extensionTarget, plaintextSize};
    result = SealAead(nonce, {out.data(), clearSize}, plaintext,
                      {extensionTarget, plaintextSize + kTransportTagSize});
    if (result != Result::kOk) {
        return result;
    }
    StoreBe32(nonce, extensionTarget + plaintextSize + kTransportTagSize);
    ++sealed_;
    if (written != nullptr) {
        *written = sealedSize;
    }
    return Result::kOk;
}

Result TransportCryptor::SealNext(const RtpHeader& header,
                                  ByteView extensionBody,
                                  ByteView payload,
                                  MutableByteView out,
                                  size_t* written) noexcept
{
    const uint32_t next = nonce_ + 1; // unsigned: wraps from 2^32-1 to 0
    const Result result = Seal(header, extensionBody, payload, next, out, written);
    if (result == Result::kOk) {
        nonce_ = next;
    }
    return result;
}

Result TransportCryptor::Open(ByteView packet, MutableByteView plaintext, OpenedPacket* opened) noexcept
{
    const Result result = OpenUncounted(packet, plaintext, opened);
    counters_.Count(result);
    return result;
}

Result TransportCryptor::OpenUncounted(ByteView packet,
                                       MutableByteView plaintext,
                                       OpenedPacket* opened) noexcept
{
    RtpHeader header;
    size_t clearSize = 0;
    Result result = ParseClearHeader(packet, &header, &clearSize);
    if (result != Result::kOk) {
        return result;
    }
    if (packet.size() - clearSize < kTransportOverhead) {
        return Result::kPacketTooShort;
    }
    const size_t sealedSize = packet.size() - clearSize - kTransportNonceSuffixSize;
    const size_t plaintextSize = sealedSize - kTransportTagSize;
    if (plaintext.size() < plaintextSize) {
        return Result::kOutputTooSmall;
    }
    const uint32_t nonce = LoadBe32(packet.data() + packet.size() - kTransportNonceSuffixSize);
    result = OpenAead(nonce, packet.first(clearSize), {packet.data() + clearSize, sealedSize}, plaintext);
    if (result != Result::kOk) {
        return result;
    }
    RtpPacketView view;
    result = SplitBody(&header, plaintext.first(plaintextSize), &view);
    if (result != Result::kOk) {
        return result;
    }
    opened->header = view.header;
    opened->nonce = nonce;
    opened->plaintextSize = plaintextSize;
    opened->extensionOffset = view.extensionOffset;
    opened->extensionSize = view.extensionSize;
    opened->payloadOffset = view.payloadOffset;
    opened->payloadSize = view.payloadSize;
    return Result::kOk;
}

} // namespace sdkpp::rtp
