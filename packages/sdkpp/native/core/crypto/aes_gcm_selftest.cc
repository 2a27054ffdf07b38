#include "core/crypto/aes_gcm_selftest.h"

#include <cstring>
#include <memory>

#include "core/crypto/aes_gcm_stream.h"
#include "core/crypto/aes_gcm_stream_backend.h"

namespace sdkpp::crypto {
namespace {

constexpr size_t kMaxText = 300;
constexpr size_t kMaxAad = 40;
constexpr int kMessages = 300;

// xorshift64: reproducible sizes and bytes, no secret involved.
class TestRandom {
public:
    uint64_t Next() noexcept
    {
        state_ ^= state_ << 13;
        state_ ^= state_ >> 7;
        state_ ^= state_ << 17;
        return state_;
    }
    size_t Below(size_t bound) noexcept { return static_cast<size_t>(Next() % bound); }
    void Fill(uint8_t* bytes, size_t size) noexcept
    {
        for (size_t i = 0; i < size; ++i) {
            bytes[i] = static_cast<uint8_t>(Next());
        }
    }

private:
    uint64_t state_ = 0x9e3779b97f4a7c15u;
};

struct Message {
    uint8_t key[kAes128KeySize];
    uint8_t iv[kGcmIvSize];
    uint8_t aad[kMaxAad];
    size_t aadSize;
    uint8_t text[kMaxText];
    size_t textSize;
    size_t cut; // where the AAD and the text are split into two pieces each
};

// Seals (or opens, checking `tag`) `message`, writing the transformed text and the 16-byte tag.
bool Run(IGcmStream& stream, const Message& message, bool encrypt, uint8_t* out, uint8_t (&tag)[16]) noexcept
{
    const size_t aadCut = message.cut % (message.aadSize + 1);
    const size_t textCut = message.cut % (message.textSize + 1);
    if (!stream.SetKey(ByteView(message.key)) || !stream.Begin(message.iv, encrypt) ||
        !stream.Aad({message.aad, aadCut}) || !stream.Aad({message.aad + aadCut, message.aadSize - aadCut}) ||
        !stream.Update({message.text, textCut}, out) ||
        !stream.Update({message.text + textCut, message.textSize - textCut}, out + textCut)) {
        return false;
    }
    return encrypt ? stream.Finish(MutableByteView(tag)) : stream.Verify(ByteView(tag));
}

bool FromHex(const char* hex, uint8_t* out, size_t size) noexcept
{
    const auto nibble = [](char c) -> int {
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    };
    if (std::strlen(hex) != 2 * size) {
        return false;
    }
    for (size_t i = 0; i < size; ++i) {
        const int high = nibble(hex[2 * i]);
        const int low = nibble(hex[2 * i + 1]);
        if (high < 0 || low < 0) {
            return false;
        }
        out[i] = static_cast<uint8_t>(high << 4 | low);
    }
    return true;
}

} // namespace

bool GcmStreamKnownAnswer() noexcept
{
    Message message{};
    uint8_t expected[60];
    uint8_t expectedTag[16];
    message.aadSize = 20;
    message.textSize = 60;
    message.cut = 17;
    if (!FromHex("feffe9928665731c6d6a8f9467308308", message.key, 16) ||
        !FromHex("cafebabefacedbaddecaf888", message.iv, 12) ||
        !FromHex("feedfacedeadbeeffeedfacedeadbeefabaddad2", message.aad, 20) ||
        !FromHex("d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b5"
                 "25b16aedf5aa0de657ba637b39",
                 message.text, 60) ||
        !FromHex("42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa"
                 "051ba30b396a0aac973d58e091",
                 expected, 60) ||
        !FromHex("5bc94fbc3221a5db94fae95ae7121a47", expectedTag, 16)) {
        return false;
    }
    const std::unique_ptr<IGcmStream> stream = CreateAes128GcmStream();
    uint8_t sealed[60];
    uint8_t tag[16];
    if (!stream || !Run(*stream, message, true, sealed, tag) || std::memcmp(sealed, expected, 60) != 0 ||
        std::memcmp(tag, expectedTag, 16) != 0) {
        return false;
    }
    Message opening = message;
    std::memcpy(opening.text, sealed, 60);
    uint8_t opened[60];
    if (!Run(*stream, opening, false, opened, tag) || std::memcmp(opened, message.text, 60) != 0) {
        return false;
    }
    tag[15] ^= 1;
    return !Run(*stream, opening, false, opened, tag);
}

bool GcmStreamBackendsAgree() noexcept
{
    const std::unique_ptr<IGcmStream> hardware = CreateHardwareAes128GcmStream();
    if (!hardware) {
        return true;
    }
    const std::unique_ptr<IGcmStream> openssl = CreateOpenSslAes128GcmStream();
    if (!openssl) {
        return false;
    }
    TestRandom random;
    for (int i = 0; i < kMessages; ++i) {
        Message message{};
        random.Fill(message.key, sizeof(message.key));
        random.Fill(message.iv, sizeof(message.iv));
        message.aadSize = random.Below(kMaxAad + 1);
        message.textSize = random.Below(kMaxText + 1);
        message.cut = random.Below(kMaxText + 1);
        random.Fill(message.aad, message.aadSize);
        random.Fill(message.text, message.textSize);
        uint8_t sealedA[kMaxText];
        uint8_t sealedB[kMaxText];
        uint8_t tagA[16];
        uint8_t tagB[16];
        if (!Run(*hardware, message, true, sealedA, tagA) || !Run(*openssl, message, true, sealedB, tagB) ||
            std::memcmp(sealedA, sealedB, message.textSize) != 0 || std::memcmp(tagA, tagB, 16) != 0) {
            return false;
        }
        Message opening = message;
        std::memcpy(opening.text, sealedA, message.textSize);
        uint8_t openedA[kMaxText];
        uint8_t openedB[kMaxText];
        if (!Run(*hardware, opening, false, openedA, tagA) || !Run(*openssl, opening, false, openedB, tagB) ||
            std::memcmp(openedA, message.text, message.textSize) != 0 ||
            std::memcmp(openedB, message.text, message.textSize) != 0) {
            return false;
        }
        // A tag wrong in one bit: both refuse.
        tagA[random.Below(16)] ^= static_cast<uint8_t>(1u << random.Below(8));
        std::memcpy(tagB, tagA, 16);
        if (Run(*hardware, opening, false, openedA, tagA) || Run(*openssl, opening, false, openedB, tagB)) {
            return false;
        }
    }
    return true;
}

} // namespace sdkpp::crypto
