#include "core/rtp/transport_selftest.h"

#include <cstring>

#include "core/crypto/hchacha20.h"
#include "core/crypto/xchacha20_poly1305.h"
#include "core/hex.h"
#include "core/rtp/byte_order.h"
#include "core/rtp/extension.h"
#include "core/rtp/ip_discovery.h"
#include "core/rtp/rtp_header.h"
#include "core/rtp/transport_cryptor.h"

namespace sdkpp::rtp {
namespace {

// wire-protocols.md §2.6: key 00..1f, header 80 78 0102 0a0b0c0d 12345678, plaintext f8fffe.
constexpr std::string_view kKey = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
constexpr std::string_view kSilence = "f8fffe";
constexpr std::string_view kAesPacket =
  "807801020a0b0c0d12345678bcc9333bce0b162e6dadfdd4890374b281c05c00000001";
constexpr std::string_view kXChaChaPacket =
  "807801020a0b0c0d12345678f158af68a4c7764a02f4c0d0715fe706a4056d00000001";
constexpr std::string_view kAesExtensionPacket =
  "907801020a0b0c0d12345678bede0001bc835ace6aff08e3164afbb07d2dadab81adea5c349f5e00000002";
constexpr std::string_view kExtensionBody = "10ff0000";
// draft-irtf-cfrg-xchacha §2.2.1.
constexpr std::string_view kHChaChaInput = "000000090000004a0000000031415927";
constexpr std::string_view kHChaChaOutput =
  "82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc";

// draft-irtf-cfrg-xchacha-03 A.3.1: a nonce whose last 8 bytes are not zero, which the platform's nonces
// never exercise.
constexpr std::string_view kXChaChaKey = "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f";
constexpr std::string_view kXChaChaNonce = "404142434445464748494a4b4c4d4e4f5051525354555657";
constexpr std::string_view kXChaChaAad = "50515253c0c1c2c3c4c5c6c7";
constexpr std::string_view kXChaChaPlaintext =
  "4c616469657320616e642047656e746c656d656e206f662074686520636c617373206f66202739393a204966204920636f"
  "756c64206f6666657220796f75206f6e6c79206f6e652074697020666f7220746865206675747572652c2073756e7363"
  "7265656e20776f756c642062652069742e";
constexpr std::string_view kXChaChaSealed =
  "bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb731c7f1b0b4aa6440bf3a82f4eda7e39ae"
  "64c6708c54c216cb96b72e1213b4522f8c9ba40db5d945b11b69b982c1bb9e3f3fac2bc369488f76b2383565d3fff921f9"
  "664c97637da9768812f615c68b13b52e"
  "c0875924c1c7987947deafd8780acf49";

constexpr size_t kBufferSize = 256;

struct Bytes {
    uint8_t data[kBufferSize] = {};
    size_t size = 0;
    explicit Bytes(std::string_view hex = {}) noexcept
    {
        const size_t decoded = DecodeHex(hex, MutableByteView{data, kBufferSize});
        size = decoded == kInvalidHex ? 0 : decoded;
    }
    ByteView View() const noexcept { return {data, size}; }
    MutableByteView Whole() noexcept { return {data, kBufferSize}; }
};

bool Equal(ByteView a, ByteView b) noexcept
{
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size()) == 0);
}

RtpHeader VectorHeader() noexcept
{
    RtpHeader header;
    header.payloadType = kOpusPayloadType;
    header.sequence = 0x0102;
    header.timestamp = 0x0a0b0c0d;
    header.ssrc = 0x12345678;
    return header;
}

bool SealsAndOpens(TransportMode mode, std::string_view expectedHex) noexcept
{
    const Bytes key(kKey);
    const Bytes silence(kSilence);
    const Bytes expected(expectedHex);
    const auto cryptor = TransportCryptor::Create(mode, key.View());
    if (!cryptor) {
        return false;
    }
    Bytes sealed;
    size_t written = 0;
    if (cryptor->SealNext(VectorHeader(), {}, silence.View(), sealed.Whole(), &written) != Result::kOk ||
        !Equal({sealed.data, written}, expected.View()) || cryptor->LastNonce() != 1) {
        return false;
    }
    Bytes opened;
    OpenedPacket info;
    return cryptor->Open(expected.View(), opened.Whole(), &info) == Result::kOk && info.nonce == 1 &&
           info.header.ssrc == 0x12345678 && info.header.sequence == 0x0102 &&
           Equal({opened.data + info.payloadOffset, info.payloadSize}, silence.View());
}

bool ExtensionVector() noexcept
{
    const Bytes key(kKey);
    const Bytes expected(kAesExtensionPacket);
    const Bytes body(kExtensionBody);
    const Bytes silence(kSilence);
    const auto cryptor = TransportCryptor::Create(TransportMode::kAeadAes256GcmRtpSize, key.View());
    if (!cryptor) {
        return false;
    }
    RtpHeader header = VectorHeader();
    header.hasExtension = true;
    header.extensionProfile = kOneByteExtensionProfile;
    header.extensionWords = 1;
    Bytes sealed;
    size_t written = 0;
    if (cryptor->Seal(header, body.View(), silence.View(), 2, sealed.Whole(), &written) != Result::kOk ||
        !Equal({sealed.data, written}, expected.View())) {
        return false;
    }
    // In place: the plaintext overwrites the ciphertext inside the packet's own buffer.
    Bytes packet(kAesExtensionPacket);
    OpenedPacket info;
    MutableByteView inPlace{packet.data + 16, packet.size - 16};
    return cryptor->Open(packet.View(), inPlace, &info) == Result::kOk && info.nonce == 2 &&
           Equal({inPlace.data() + info.extensionOffset, info.extensionSize}, body.View()) &&
           Equal({inPlace.data() + info.payloadOffset, info.payloadSize}, silence.View());
}

bool HChaChaVector() noexcept
{
    const Bytes key(kKey);
    const Bytes input(kHChaChaInput);
    const Bytes expected(kHChaChaOutput);
    uint8_t keyArray[crypto::kHChaCha20KeySize];
    uint8_t inputArray[crypto::kHChaCha20InputSize];
    uint8_t output[crypto::kHChaCha20OutputSize];
    std::memcpy(keyArray, key.data, sizeof(keyArray));
    std::memcpy(inputArray, input.data, sizeof(inputArray));
    crypto::HChaCha20(keyArray, inputArray, output);
    return Equal(output, expected.View());
}

bool XChaChaVector() noexcept
{
    const Bytes key(kXChaChaKey);
    const Bytes nonce(kXChaChaNonce);
    const Bytes aad(kXChaChaAad);
    const Bytes plaintext(kXChaChaPlaintext);
    const Bytes expected(kXChaChaSealed);
    const auto cipher = crypto::XChaCha20Poly1305::Create(key.View());
    Bytes sealed;
    Bytes opened;
    size_t sealedSize = 0;
    size_t openedSize = 0;
    if (!cipher || plaintext.size != 114 ||
        cipher->Seal(nonce.View(), aad.View(), plaintext.View(), sealed.Whole(), &sealedSize) !=
          crypto::AeadResult::kSuccess ||
        !Equal({sealed.data, sealedSize}, expected.View())) {
        return false;
    }
    Bytes tampered(kXChaChaSealed);
    tampered.data[0] ^= 1;
    return cipher->Open(nonce.View(), aad.View(), expected.View(), opened.Whole(), &openedSize) ==
             crypto::AeadResult::kSuccess &&
           Equal({opened.data, openedSize}, plaintext.View()) &&
           cipher->Open(nonce.View(), aad.View(), tampered.View(), opened.Whole(), &openedSize) ==
             crypto::AeadResult::kAuthenticationFailed &&
           cipher->Open({nonce.data, 12}, aad.View(), expected.View(), opened.Whole(), &openedSize) ==
             crypto::AeadResult::kInvalidNonceSize;
}

bool NonceCounter() noexcept
{
    const Bytes key(kKey);
    const auto cryptor = TransportCryptor::Create(TransportMode::kAeadXChaCha20Poly1305RtpSize, key.View());
    Bytes out;
    size_t written = 0;
    OpenedPacket info;
    Bytes opened;
    // An explicit nonce does not move the counter; SealNext does, and only on success.
    if (!cryptor) {
        return false;
    }
    const RtpHeader header = VectorHeader();
    bool ok = cryptor->Seal(header, {}, {}, 0xFFFFFFFFu, out.Whole(), &written) == Result::kOk &&
              cryptor->LastNonce() == 0;
    ok = ok && cryptor->SealNext(header, {}, {}, {out.data, 10}, &written) == Result::kOutputTooSmall &&
         cryptor->LastNonce() == 0;
    return ok && cryptor->SealNext(header, {}, {}, out.Whole(), &written) == Result::kOk &&
           cryptor->Open({out.data, written}, opened.Whole(), &info) == Result::kOk && info.nonce == 1;
}

// Seals `plaintext` under `clear` directly with the AEAD, so that the header may lie about the body.
size_t CraftAes(const Bytes& key, ByteView clear, ByteView plaintext, uint32_t nonce, uint8_t* out) noexcept
{
    const auto aead = crypto::CreateAeadCipher(crypto::AeadAlgorithm::kAes256Gcm, key.View());
    uint8_t fullNonce[12] = {};
    StoreBe32(nonce, fullNonce);
    std::memcpy(out, clear.data(), clear.size());
    size_t sealed = 0;
    const MutableByteView body{out + clear.size(), kBufferSize - clear.size()};
    if (!aead || aead->Seal(fullNonce, clear, plaintext, body, &sealed) != crypto::AeadResult::kSuccess) {
        return 0;
    }
    StoreBe32(nonce, out + clear.size() + sealed);
    return clear.size() + sealed + 4;
}

Result OpenResult(TransportCryptor& cryptor, ByteView packet) noexcept
{
    Bytes opened;
    OpenedPacket info;
    return cryptor.Open(packet, opened.Whole(), &info);
}

bool MalformedPackets() noexcept
{
    const Bytes key(kKey);
    const auto cryptor = TransportCryptor::Create(TransportMode::kAeadAes256GcmRtpSize, key.View());
    if (!cryptor) {
        return false;
    }
    Bytes good(kAesPacket);
    Bytes packet(kAesPacket);
    bool ok = OpenResult(*cryptor, {good.data, 11}) == Result::kTruncatedHeader;
    packet.data[0] = 0x40; // version 1
    ok = ok && OpenResult(*cryptor, packet.View()) == Result::kBadVersion;
    packet = good;
    packet.data[0] = 0x8F; // 15 CSRCs in a 35-byte packet
    ok = ok && OpenResult(*cryptor, {packet.data, 40}) == Result::kCsrcPastEnd;
    packet.data[0] = 0x90; // X, but only the 12-byte header
    ok = ok && OpenResult(*cryptor, {packet.data, 14}) == Result::kExtensionPastEnd;
    packet = good;
    ok = ok && OpenResult(*cryptor, {packet.data, 12 + 19}) == Result::kPacketTooShort;
    packet.data[packet.size - 1] ^= 1; // another nonce
    ok = ok && OpenResult(*cryptor, packet.View()) == Result::kAuthenticationFailed;
    packet = good;
    packet.data[15] ^= 0x80; // a tag bit
    ok = ok && OpenResult(*cryptor, packet.View()) == Result::kAuthenticationFailed;
    Bytes wrongKey(kKey);
    wrongKey.data[0] ^= 1;
    const auto other = TransportCryptor::Create(TransportMode::kAeadAes256GcmRtpSize, wrongKey.View());
    ok = ok && other && OpenResult(*other, good.View()) == Result::kAuthenticationFailed;
    // Authentic packets whose header lies about the encrypted body.
    const Bytes silence(kSilence);
    Bytes crafted;
    const Bytes longExtension("907801020a0b0c0d12345678bede0004"); // 16-byte body, 3 bytes sent
    size_t size = CraftAes(key, longExtension.View(), silence.View(), 7, crafted.data);
    ok = ok && size > 0 && OpenResult(*cryptor, {crafted.data, size}) == Result::kExtensionPastEnd;
    const Bytes padded("a07801020a0b0c0d12345678"); // P set
    const Bytes tooMuchPadding("f8ff04");
    size = CraftAes(key, padded.View(), tooMuchPadding.View(), 8, crafted.data);
    ok = ok && size > 0 && OpenResult(*cryptor, {crafted.data, size}) == Result::kBadPadding;
    const Bytes zeroPadding("f8ff00");
    size = CraftAes(key, padded.View(), zeroPadding.View(), 9, crafted.data);
    ok = ok && size > 0 && OpenResult(*cryptor, {crafted.data, size}) == Result::kBadPadding;
    const Bytes goodPadding("f8fffe000003");
    size = CraftAes(key, padded.View(), goodPadding.View(), 10, crafted.data);
    Bytes opened;
    OpenedPacket info;
    ok = ok && size > 0 && cryptor->Open({crafted.data, size}, opened.Whole(), &info) == Result::kOk &&
         info.header.paddingSize == 3 &&
         Equal({opened.data + info.payloadOffset, info.payloadSize}, silence.View());
    ok = ok && cryptor->Open(good.View(), {opened.data, 2}, &info) == Result::kOutputTooSmall;
    const PacketCounters& counters = cryptor->Counters();
    return ok && counters.Get(Result::kAuthenticationFailed) == 2 && counters.Get(Result::kBadPadding) == 2 &&
           counters.Get(Result::kExtensionPastEnd) == 2 && counters.Get(Result::kOk) == 1 &&
           counters.Failures() == 11;
}

bool CsrcsAndPadding() noexcept
{
    const Bytes key(kKey);
    const auto cryptor = TransportCryptor::Create(TransportMode::kAeadXChaCha20Poly1305RtpSize, key.View());
    if (!cryptor) {
        return false;
    }
    RtpHeader header = VectorHeader();
    header.marker = true;
    header.csrcCount = 2;
    header.csrcs[0] = 0xdeadbeef;
    header.csrcs[1] = 7;
    header.paddingSize = 5;
    const Bytes payload("0102030405060708");
    Bytes sealed;
    size_t written = 0;
    size_t expectedSize = 0;
    if (TransportCryptor::SealedSize(header, payload.size, &expectedSize) != Result::kOk ||
        cryptor->SealNext(header, {}, payload.View(), sealed.Whole(), &written) != Result::kOk ||
        written != expectedSize || written != 12 + 8 + 8 + 5 + 20) {
        return false;
    }
    Bytes opened;
    OpenedPacket info;
    return cryptor->Open({sealed.data, written}, opened.Whole(), &info) == Result::kOk &&
           info.header.marker && info.header.csrcCount == 2 && info.header.csrcs[0] == 0xdeadbeef &&
           info.header.csrcs[1] == 7 && info.header.paddingSize == 5 &&
           Equal({opened.data + info.payloadOffset, info.payloadSize}, payload.View());
}

bool ExtensionElements() noexcept
{
    const Bytes audioLevel("7f");
    const Bytes speaking("0102");
    const ExtensionElement elements[] = {{1, audioLevel.View()}, {9, speaking.View()}};
    Bytes body;
    size_t written = 0;
    if (WriteExtensionElements(kOneByteExtensionProfile, elements, body.Whole(), &written) != Result::kOk ||
        !Equal({body.data, written}, Bytes("107f910102000000").View())) {
        return false;
    }
    ExtensionReader reader(kOneByteExtensionProfile, {body.data, written});
    ExtensionElement element;
    bool done = false;
    bool ok = reader.Next(&element, &done) == Result::kOk && !done && element.id == 1 &&
              Equal(element.data, audioLevel.View());
    ok = ok && reader.Next(&element, &done) == Result::kOk && !done && element.id == 9 &&
         Equal(element.data, speaking.View());
    ok = ok && reader.Next(&element, &done) == Result::kOk && done;
    // Two-byte elements, and one whose length runs past the body.
    ok = ok &&
         WriteExtensionElements(kTwoByteExtensionProfile, elements, body.Whole(), &written) == Result::kOk &&
         Equal({body.data, written}, Bytes("01017f0902010200").View());
    const Bytes truncated("01057f00");
    ExtensionReader bad(kTwoByteExtensionProfile, truncated.View());
    ok = ok && bad.Next(&element, &done) == Result::kExtensionPastEnd && done;
    const ExtensionElement invalid[] = {{15, audioLevel.View()}};
    return ok && WriteExtensionElements(kOneByteExtensionProfile, invalid, body.Whole(), &written) ==
                   Result::kInvalidHeader;
}

bool IpDiscoveryVectors() noexcept
{
    IpDiscoveryPacket request;
    request.ssrc = 0x12345678;
    Bytes out;
    size_t written = 0;
    Bytes expected("0001004612345678");
    expected.size = kIpDiscoverySize;
    if (WriteIpDiscovery(request, out.Whole(), &written) != Result::kOk ||
        !Equal({out.data, written}, expected.View())) {
        return false;
    }
    IpDiscoveryPacket response;
    response.type = IpDiscoveryType::kResponse;
    response.ssrc = 0x12345678;
    std::memcpy(response.address, "203.0.113.7", 11);
    response.addressSize = 11;
    response.port = 50000;
    Bytes expectedResponse("00020046123456783230332e302e3131332e37");
    expectedResponse.size = kIpDiscoverySize;
    expectedResponse.data[72] = 0xc3;
    expectedResponse.data[73] = 0x50;
    IpDiscoveryPacket parsed;
    const auto text = [](const char* chars, size_t size) {
        return ByteView{reinterpret_cast<const uint8_t*>(chars), size};
    };
    bool ok = WriteIpDiscovery(response, out.Whole(), &written) == Result::kOk &&
              Equal({out.data, written}, expectedResponse.View()) &&
              ParseIpDiscovery(expectedResponse.View(), &parsed) == Result::kOk && parsed.port == 50000 &&
              parsed.ssrc == 0x12345678 &&
              Equal(text(parsed.address, parsed.addressSize), text("203.0.113.7", 11));
    Bytes bad = expectedResponse;
    ok = ok && ParseIpDiscovery({bad.data, 73}, &parsed) == Result::kBadDiscoveryLength;
    bad.data[3] = 71;
    ok = ok && ParseIpDiscovery(bad.View(), &parsed) == Result::kBadDiscoveryLength;
    bad = expectedResponse;
    bad.data[1] = 3;
    ok = ok && ParseIpDiscovery(bad.View(), &parsed) == Result::kBadDiscoveryType;
    bad = expectedResponse;
    std::memset(bad.data + 8, '1', 64); // no NUL
    ok = ok && ParseIpDiscovery(bad.View(), &parsed) == Result::kBadDiscoveryAddress;
    bad = expectedResponse;
    bad.data[8] = 'x';
    ok = ok && ParseIpDiscovery(bad.View(), &parsed) == Result::kBadDiscoveryAddress;
    bad = expectedResponse;
    bad.data[8] = 0; // a response without an address
    return ok && ParseIpDiscovery(bad.View(), &parsed) == Result::kBadDiscoveryAddress;
}

} // namespace

bool TransportSelfTestReport::Ok() const noexcept
{
    for (size_t i = 0; i < count; ++i) {
        if (!checks[i].ok) {
            return false;
        }
    }
    return count > 0;
}

TransportSelfTestReport RunTransportSelfTest() noexcept
{
    TransportSelfTestReport report;
    const auto add = [&report](std::string_view name, bool ok) {
        if (report.count < kMaxTransportChecks) {
            report.checks[report.count++] = TransportCheck{name, ok};
        }
    };
    add("hchacha20-vector", HChaChaVector());
    add("xchacha20-poly1305-vector", XChaChaVector());
    add("aead_aes256_gcm_rtpsize-vector", SealsAndOpens(TransportMode::kAeadAes256GcmRtpSize, kAesPacket));
    add("aead_xchacha20_poly1305_rtpsize-vector",
        SealsAndOpens(TransportMode::kAeadXChaCha20Poly1305RtpSize, kXChaChaPacket));
    add("aead_aes256_gcm_rtpsize-extension-vector", ExtensionVector());
    add("nonce-counter", NonceCounter());
    add("csrcs-marker-padding", CsrcsAndPadding());
    add("malformed-packets", MalformedPackets());
    add("extension-elements", ExtensionElements());
    add("ip-discovery", IpDiscoveryVectors());
    return report;
}

} // namespace sdkpp::rtp
