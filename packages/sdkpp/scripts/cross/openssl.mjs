// A static libcrypto for each cross target, built from one pinned OpenSSL 3.0 source: the upstream release
// tarball as Debian's archive carries it (`openssl_<version>.orig.tar.gz` is upstream's file), checked
// against its sha256. Only what the addon calls is kept (AES-GCM, ChaCha20-Poly1305, SHA-256 and HMAC):
// the protocols, certificates' less used algorithms and the engine/module loaders are configured out, which
// roughly halves the build. The result lands in the cross cache: <cache>/openssl/<target>/{include,lib}.
// fetch and AbortSignal are Node's own globals (Node 18 and later).
/* global fetch, AbortSignal */
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';

import { run } from '../npm-source.mjs';
import { cachedLibrary, crossCacheDir } from './cache.mjs';

export const OPENSSL_SOURCE = Object.freeze({
  version: '3.0.22',
  sha256: '67ebca7e50d17383028045486653492195b83db95f8558709701bb47b5c1ef81',
  // The same file in Debian's security archive now and in the main archive after the next point release.
  urls: [
    'http://deb.debian.org/debian-security/pool/updates/main/o/openssl/openssl_3.0.22.orig.tar.gz',
    'http://deb.debian.org/debian/pool/main/o/openssl/openssl_3.0.22.orig.tar.gz',
  ],
});

/** Configure options: a static library, no programs, and nothing the addon does not use. */
export const OPENSSL_OPTIONS = Object.freeze(
  [
    'no-shared no-module no-tests no-legacy no-engine no-dso no-async no-comp no-autoload-config',
    'no-ssl3 no-tls no-dtls no-sock no-srtp no-ui-console no-ocsp no-cms no-ts no-srp no-ct no-cmp',
    'no-rfc3779 no-dsa no-dh no-ec no-sm2 no-sm3 no-sm4 no-idea no-rc2 no-rc4 no-rc5 no-md4 no-mdc2',
    'no-whirlpool no-seed no-bf no-cast no-camellia no-aria no-des no-siphash no-scrypt no-blake2 no-ocb',
  ]
    .join(' ')
    .split(' '),
);

async function sourceTarball() {
  const dir = path.join(crossCacheDir(), 'src');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `openssl-${OPENSSL_SOURCE.version}.tar.gz`);
  const matches = (bytes) => createHash('sha256').update(bytes).digest('hex') === OPENSSL_SOURCE.sha256;
  if (existsSync(file) && matches(readFileSync(file))) return file;
  const failures = [];
  for (const url of OPENSSL_SOURCE.urls) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(120_000) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const bytes = Buffer.from(await response.arrayBuffer());
      if (!matches(bytes)) throw new Error('the file does not match the pinned sha256');
      writeFileSync(`${file}.partial`, bytes);
      renameSync(`${file}.partial`, file);
      return file;
    } catch (error) {
      failures.push(`${url}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new Error(
    `OpenSSL ${OPENSSL_SOURCE.version}'s source could not be fetched:\n  ${failures.join('\n  ')}`,
  );
}

/**
 * libcrypto.a for `id` (built unless the cache has it for the same source, options and compiler), as
 * `{ library, include, version, seconds }`; seconds is 0 when it came from the cache.
 */
export async function libcryptoFor(id, target, tools) {
  const wanted = { source: OPENSSL_SOURCE, options: OPENSSL_OPTIONS, target, cc: tools.cc };
  const built = await cachedLibrary(
    'openssl',
    id,
    wanted,
    path.join('lib', 'libcrypto.a'),
    async (work, prefix) => {
      const tarball = await sourceTarball();
      run('tar', ['xzf', tarball, '-C', work, '--strip-components=1']);
      const env = { ...process.env, CC: tools.cc, AR: tools.ar, RANLIB: tools.ranlib };
      // On macOS OpenSSL takes its entropy from CommonCrypto, whose headers come with Apple's SDK; without it,
      // getentropy() (macOS 10.12 and later) serves as on the other Unixes. --libdir=lib: OpenSSL would
      // otherwise pick lib64 on some targets.
      const extra = target.platform === 'darwin' ? ['-DOPENSSL_NO_APPLE_CRYPTO_RANDOM'] : [];
      const configure = [target.openssl, ...OPENSSL_OPTIONS, ...extra, `--prefix=${prefix}`, '--libdir=lib'];
      run('perl', ['Configure', ...configure], { cwd: work, env });
      const jobs = process.env.JOBS || '2';
      run('make', [`-j${jobs}`, 'build_generated'], { cwd: work, env });
      run('make', [`-j${jobs}`, 'libcrypto.a'], { cwd: work, env });
      mkdirSync(path.join(prefix, 'lib'), { recursive: true });
      renameSync(path.join(work, 'libcrypto.a'), path.join(prefix, 'lib', 'libcrypto.a'));
      // The public headers: the source's include/openssl plus the ones Configure generated into the same place.
      run('cp', ['-R', path.join(work, 'include'), path.join(prefix, 'include')]);
    },
  );
  return {
    library: built.library,
    include: path.join(built.prefix, 'include'),
    version: OPENSSL_SOURCE.version,
    seconds: built.seconds,
  };
}
