#pragma once

// The seam between the generic AEAD checks (aead.cc) and one crypto backend. Exactly one backend file
// defines these (openssl_aead.cc today; a BoringSSL one is what Electron needs, since Electron does not
// export OpenSSL).

#include <memory>

#include "core/crypto/aead.h"

namespace sdkpp::crypto::backend {

bool SupportsAead(AeadAlgorithm algorithm) noexcept;

// Called with a known algorithm and a key of the right size.
std::unique_ptr<IAeadCipher> CreateAeadCipher(AeadAlgorithm algorithm,
                                              const AeadParameters& parameters,
                                              ByteView key,
                                              AeadResult* result) noexcept;

} // namespace sdkpp::crypto::backend
