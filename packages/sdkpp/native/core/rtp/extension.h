#pragma once

#include <cstddef>
#include <cstdint>

#include "core/rtp/result.h"
#include "core/span.h"

namespace sdkpp::rtp {

// One RFC 8285 header extension element: an id and its bytes (a view into the extension body).
struct ExtensionElement {
    uint8_t id = 0;
    ByteView data;
};

// Walks the elements of an extension body. One-byte (0xBEDE): ids 1-14, 1-16 bytes each, id 15 ends the
// list. Two-byte (0x100x): ids 1-255, 0-255 bytes each. Padding bytes (id 0) are skipped. A body of any
// other profile has no elements this reader knows, so it reports none.
class ExtensionReader {
public:
    ExtensionReader(uint16_t profile, ByteView body) noexcept;

    // kOk with *done == false and the next element; kOk with *done == true at the end; kExtensionPastEnd
    // when an element's header or data runs past the body (the reader then stays done).
    Result Next(ExtensionElement* element, bool* done) noexcept;

private:
    bool oneByte_;
    bool known_;
    ByteView body_;
    size_t offset_ = 0;
};

// Writes elements as one extension body of `profile` (one- or two-byte), zero-padded to whole 32-bit
// words. kInvalidHeader for another profile, an id or a length the profile cannot carry, or a body longer
// than 65535 words; kOutputTooSmall when `out` is short. `written` is a multiple of 4.
Result WriteExtensionElements(uint16_t profile,
                              Span<const ExtensionElement> elements,
                              MutableByteView out,
                              size_t* written) noexcept;

} // namespace sdkpp::rtp
