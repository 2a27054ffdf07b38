import { execFileSync } from 'node:child_process';

/** Crypto symbols a host must never have to provide: OpenSSL's and BoringSSL's public names. */
export const HOST_CRYPTO_SYMBOL =
  /^(EVP_|OPENSSL_|CRYPTO_|ERR_|HMAC|SHA256|SHA1|SHA512|RAND_|AES_|BN_|OSSL_)/;

/** The symbols an ELF shared object leaves for its host to provide. */
export function undefinedSymbols(file: string): string[] {
  return execFileSync('nm', ['-D', '--undefined-only', file], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().split(/\s+/).at(-1) ?? '')
    .filter((name) => name !== '');
}
