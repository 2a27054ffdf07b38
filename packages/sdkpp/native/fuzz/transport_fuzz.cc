// The transport receive path (Open, both rtpsize modes) on raw bytes, and a seal/open round trip of a
// packet built from the input. The key is test/vectors/transport.json's, so that the seeds (that file's
// packets) authenticate and carry the fuzzer past the tag check into the decrypted body.
#include <cstring>
#include <memory>

#include "core/rtp/transport_cryptor.h"
#include "fuzz/fuzz_input.h"
#include "fuzz/fuzz_targets.h"

namespace sdkpp::fuzz {
namespace {

using namespace sdkpp::rtp;

constexpr uint8_t kVectorKey[kTransportKeySize] = {
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
    0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
};
constexpr TransportMode kModes[] = {TransportMode::kAeadAes256GcmRtpSize,
                                    TransportMode::kAeadXChaCha20Poly1305RtpSize};

// One cryptor per mode for the whole run, as a connection keeps one: creating EVP contexts per input
// would spend the fuzzer's time in OpenSSL's setup instead of our parsers.
TransportCryptor& Cryptor(TransportMode mode)
{
    static const std::unique_ptr<TransportCryptor> cryptors[] = {
        TransportCryptor::Create(kModes[0], kVectorKey),
        TransportCryptor::Create(kModes[1], kVectorKey),
    };
    TransportCryptor* cryptor = cryptors[static_cast<size_t>(mode)].get();
    SDKPP_FUZZ_CHECK(cryptor != nullptr);
    return *cryptor;
}

// A heap buffer of exactly `size` bytes (at least one, so that the pointer is real), where AddressSanitizer
// sees the first byte past the end.
std::unique_ptr<uint8_t[]> Exact(size_t size)
{
    return std::unique_ptr<uint8_t[]>(new uint8_t[size == 0 ? 1 : size]);
}

void CheckOpened(const OpenedPacket& opened, size_t plaintextCapacity)
{
    SDKPP_FUZZ_CHECK(opened.plaintextSize <= plaintextCapacity);
    SDKPP_FUZZ_CHECK(Inside(opened.extensionOffset, opened.extensionSize, opened.plaintextSize));
    SDKPP_FUZZ_CHECK(Inside(opened.payloadOffset, opened.payloadSize, opened.plaintextSize) &&
                     opened.payloadOffset + opened.payloadSize + opened.header.paddingSize ==
                       opened.plaintextSize);
}

} // namespace

void FuzzTransportOpen(const uint8_t* data, size_t size)
{
    const ByteView packet{data, size};
    const size_t capacity = TransportCryptor::MaxPlaintextSize(size);
    for (const TransportMode mode : kModes) {
        TransportCryptor& cryptor = Cryptor(mode);
        const auto plaintext = Exact(capacity);
        OpenedPacket opened;
        const Result result = cryptor.Open(packet, {plaintext.get(), capacity}, &opened);
        if (result == Result::kOk) {
            CheckOpened(opened, capacity);
        }

        // In place: the plaintext overwrites the ciphertext right after the clear header.
        const auto copy = Exact(size);
        if (size > 0) {
            std::memcpy(copy.get(), data, size);
        }
        RtpHeader header;
        size_t clearSize = 0;
        if (ParseClearHeader(packet, &header, &clearSize) == Result::kOk && clearSize <= size) {
            OpenedPacket inPlace;
            const MutableByteView target{copy.get() + clearSize, size - clearSize};
            const Result inPlaceResult = cryptor.Open({copy.get(), size}, target, &inPlace);
            SDKPP_FUZZ_CHECK(inPlaceResult == result);
            if (inPlaceResult == Result::kOk) {
                CheckOpened(inPlace, target.size());
                SDKPP_FUZZ_CHECK(inPlace.plaintextSize == opened.plaintextSize &&
                                 std::memcmp(target.data(), plaintext.get(), opened.plaintextSize) == 0);
            }
        }
    }
}

void FuzzTransportSeal(const uint8_t* data, size_t size)
{
    FuzzInput input(data, size);
    const TransportMode mode = kModes[input.Byte() & 1];
    RtpHeader header;
    header.marker = input.Bool();
    header.payloadType = static_cast<uint8_t>(input.Byte() & 0x7f);
    header.sequence = input.U16();
    header.timestamp = input.U32();
    header.ssrc = input.U32();
    header.csrcCount = static_cast<uint8_t>(input.Byte() % (kMaxCsrcs + 1));
    for (size_t i = 0; i < header.csrcCount; ++i) {
        header.csrcs[i] = input.U32();
    }
    header.hasExtension = input.Bool();
    if (header.hasExtension) {
        header.extensionProfile = input.U16();
        header.extensionWords = static_cast<uint16_t>(input.Byte() % 8);
    }
    header.paddingSize = input.Byte();
    const uint32_t nonce = input.U32();
    const ByteView extension = input.Take(ExtensionBodySize(header));
    if (extension.size() != ExtensionBodySize(header)) {
        return; // too short an input for the body it asked for
    }
    const ByteView payload = input.Rest();

    size_t sealedSize = 0;
    if (TransportCryptor::SealedSize(header, payload.size(), &sealedSize) != Result::kOk) {
        return;
    }
    TransportCryptor& cryptor = Cryptor(mode);
    const auto sealed = Exact(sealedSize);
    size_t written = 0;
    // One byte short must be refused, not overrun.
    SDKPP_FUZZ_CHECK(cryptor.Seal(header, extension, payload, nonce, {sealed.get(), sealedSize - 1},
                                  &written) == Result::kOutputTooSmall);
    const Result sealResult = cryptor.Seal(header, extension, payload, nonce, {sealed.get(), sealedSize},
                                           &written);
    SDKPP_FUZZ_CHECK(sealResult == Result::kOk && written == sealedSize);

    const size_t capacity = TransportCryptor::MaxPlaintextSize(sealedSize);
    const auto plaintext = Exact(capacity);
    OpenedPacket opened;
    SDKPP_FUZZ_CHECK(cryptor.Open({sealed.get(), sealedSize}, {plaintext.get(), capacity}, &opened) ==
                     Result::kOk);
    CheckOpened(opened, capacity);
    SDKPP_FUZZ_CHECK(opened.nonce == nonce && opened.header.ssrc == header.ssrc &&
                     opened.header.sequence == header.sequence &&
                     opened.header.timestamp == header.timestamp && opened.header.marker == header.marker &&
                     opened.header.payloadType == header.payloadType &&
                     opened.header.csrcCount == header.csrcCount &&
                     opened.header.paddingSize == header.paddingSize);
    const uint8_t* openedPayload = plaintext.get() + opened.payloadOffset;
    SDKPP_FUZZ_CHECK(opened.payloadSize == payload.size() &&
                     (payload.empty() || std::memcmp(openedPayload, payload.data(), payload.size()) == 0));
    SDKPP_FUZZ_CHECK(opened.extensionSize == extension.size() &&
                     (extension.empty() || std::memcmp(plaintext.get() + opened.extensionOffset,
                                                       extension.data(), extension.size()) == 0));

    // Any flipped bit of the sealed packet (the clear header is authenticated too) must fail to open.
    const size_t flip = static_cast<size_t>(nonce) % sealedSize;
    sealed[flip] = static_cast<uint8_t>(sealed[flip] ^ (1U << (header.sequence % 8)));
    OpenedPacket tampered;
    SDKPP_FUZZ_CHECK(cryptor.Open({sealed.get(), sealedSize}, {plaintext.get(), capacity}, &tampered) !=
                     Result::kOk);
}

} // namespace sdkpp::fuzz
