#!/usr/bin/env node
// binding.gyp asks this how the addon gets its crypto (AES-GCM, ChaCha20-Poly1305, SHA-256/HMAC/HKDF).
// First choice: a static libcrypto linked into the addon with its symbols hidden, so the addon takes no
// crypto from its host and loads in Electron and Bun (which carry BoringSSL and export no OpenSSL). The
// static library is Debian's (libssl-dev: /usr/lib/<multiarch>/libcrypto.a, position-independent, with
// OpenSSL's AES-NI/PCLMUL/AVX2 assembly), compiled against its own headers. Without one, the addon falls
// back to the OpenSSL symbols of the node binary (Node's headers), which works in Node only.
//   exists | includes | libs | describe     what binding.gyp and the build script ask
//   SDKPP_CRYPTO=host                       skip the static library (how CI checks the fallback compiles)
//   SDKPP_LIBCRYPTO_A=/path/libcrypto.a     another static libcrypto (its headers in ../include or
//                                           SDKPP_OPENSSL_INCLUDE)
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';

function multiarch() {
  try {
    return execFileSync('gcc', ['-print-multiarch'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return process.arch === 'arm64' ? 'aarch64-linux-gnu' : 'x86_64-linux-gnu';
  }
}

/** The static libcrypto to link and the include directories that match it, or undefined. */
export function staticCrypto() {
  if (process.platform !== 'linux' || process.env.SDKPP_CRYPTO === 'host') return undefined;
  const explicit = process.env.SDKPP_LIBCRYPTO_A;
  const arch = multiarch();
  const library = explicit ?? `/usr/lib/${arch}/libcrypto.a`;
  const includes = explicit
    ? [process.env.SDKPP_OPENSSL_INCLUDE ?? path.join(path.dirname(library), '..', 'include')]
    : ['/usr/include', `/usr/include/${arch}`];
  const header = includes.find((dir) => existsSync(path.join(dir, 'openssl', 'evp.h')));
  if (!existsSync(library) || header === undefined) return undefined;
  const version = /OPENSSL_FULL_VERSION_STR\s+"([^"]+)"/.exec(
    readFileSync(path.join(header, 'openssl', 'opensslv.h'), 'utf8'),
  )?.[1];
  if (version === undefined || !version.startsWith('3.')) return undefined;
  return { library, includes, version };
}

// Run as a command (by binding.gyp); imported by the build script for its progress line.
const asCommand = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
const found = asCommand ? staticCrypto() : undefined;
const what = asCommand ? process.argv[2] : undefined;
if (what === 'exists') process.stdout.write(found ? 'true' : 'false');
else if (what === 'includes' && found) process.stdout.write(found.includes.join(' '));
// --exclude-libs makes every libcrypto symbol local to the addon: none is exported, none interposes.
else if (what === 'libs' && found) process.stdout.write(`${found.library} -Wl,--exclude-libs,libcrypto.a`);
else if (what === 'describe')
  process.stdout.write(found ? `static OpenSSL ${found.version} (${found.library})` : "the host's OpenSSL");
