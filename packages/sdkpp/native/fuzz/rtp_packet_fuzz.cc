// Every receive-path parser of an unencrypted RTP packet, on raw bytes. The drivers hand each input over
// in a heap buffer of exactly its size, so AddressSanitizer stops at the first byte read past it.
#include "core/rtp/extension.h"
#include "core/rtp/rtp_header.h"
#include "fuzz/fuzz_targets.h"

namespace sdkpp::fuzz {
namespace {

using namespace sdkpp::rtp;

void DrainExtension(uint16_t profile, ByteView body)
{
    ExtensionReader reader(profile, body);
    ExtensionElement element;
    bool done = false;
    // Each element has at least one byte of header, so a body of n bytes has at most n elements: more
    // iterations than that would be a reader that never ends.
    size_t steps = 0;
    while (reader.Next(&element, &done) == Result::kOk && !done) {
        SDKPP_FUZZ_CHECK(++steps <= body.size());
        SDKPP_FUZZ_CHECK(element.data.empty() || (element.data.data() >= body.data() &&
                                                  element.data.end() <= body.end()));
    }
}

} // namespace

void FuzzRtpPacket(const uint8_t* data, size_t size)
{
    const ByteView packet{data, size};
    RtpPacketView view;
    const Result parsed = ParseRtpPacket(packet, &view);
    if (parsed == Result::kOk) {
        const size_t clear = ClearHeaderSize(view.header);
        SDKPP_FUZZ_CHECK(clear <= view.extensionOffset || !view.header.hasExtension);
        SDKPP_FUZZ_CHECK(Inside(view.extensionOffset, view.extensionSize, size));
        SDKPP_FUZZ_CHECK(Inside(view.payloadOffset, view.payloadSize, size) &&
                         view.payloadOffset + view.payloadSize + view.header.paddingSize == size);
        SDKPP_FUZZ_CHECK(view.header.csrcCount <= kMaxCsrcs);
        if (view.header.hasExtension) {
            const ByteView body = packet.subspan(view.extensionOffset).first(view.extensionSize);
            DrainExtension(view.header.extensionProfile, body);
        }
    }

    // The two halves on their own, as the transport uses them (the body after decryption).
    RtpHeader header;
    size_t clearSize = 0;
    if (ParseClearHeader(packet, &header, &clearSize) == Result::kOk) {
        SDKPP_FUZZ_CHECK(clearSize == ClearHeaderSize(header) && clearSize <= size);
        RtpPacketView split;
        const Result splitResult = SplitBody(&header, packet.subspan(clearSize), &split);
        SDKPP_FUZZ_CHECK((splitResult == Result::kOk) == (parsed == Result::kOk));
    } else {
        SDKPP_FUZZ_CHECK(parsed != Result::kOk);
    }

    // The whole input as an extension body of either profile.
    DrainExtension(kOneByteExtensionProfile, packet);
    DrainExtension(kTwoByteExtensionProfile, packet);
}

} // namespace sdkpp::fuzz
