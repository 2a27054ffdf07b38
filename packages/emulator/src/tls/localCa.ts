import { webcrypto } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';

import * as x509 from '@peculiar/x509';

// @peculiar/x509 rather than the `openssl` command or node-forge: it makes certificates with Node's own
// WebCrypto (ECDSA P-256 in milliseconds), is kept up to date, and needs no program on the machine.
// Node's webcrypto is the Crypto the library's types name after the DOM's (no DOM types here).
x509.cryptoProvider.set(webcrypto as never);

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;
/** The authority lasts ten years: made once, trusted once. */
const CA_DAYS = 3650;
/** A server certificate lasts 397 days, the most a browser accepts; a new one is made at each start. */
const SERVER_DAYS = 397;

/** The files of a local certificate authority. */
export const CA_CERT_FILE = 'ca.pem';
const CA_KEY_FILE = 'ca-key.pem';

/** A server certificate and its key, PEM. */
export interface ServerCertificate {
  cert: string;
  key: string;
}

/** The emulator's local certificate authority: its certificate (to trust) and what it signs. */
export interface LocalCa {
  /** The authority's certificate file, for `NODE_EXTRA_CA_CERTS`. */
  readonly certFile: string;
  /** The authority's certificate, PEM. */
  readonly certPem: string;
  /** Signs a server certificate for these IP addresses and DNS names. */
  issue(names: { ips: string[]; dns: string[] }): Promise<ServerCertificate>;
}

/**
 * Where the authority is kept when nothing else is said: a per-user state folder
 * (`$XDG_STATE_HOME/sdkpp-emulator`, else `~/.local/state/sdkpp-emulator`; `%LOCALAPPDATA%` on Windows).
 */
export function defaultCaDir(env: NodeJS.ProcessEnv = process.env): string {
  if (process.platform === 'win32' && env.LOCALAPPDATA) return path.join(env.LOCALAPPDATA, 'sdkpp-emulator');
  const state = env.XDG_STATE_HOME || path.join(homedir(), '.local', 'state');
  return path.join(state, 'sdkpp-emulator');
}

function pem(label: string, der: ArrayBuffer): string {
  const base64 = Buffer.from(der).toString('base64');
  return `-----BEGIN ${label}-----\n${base64.replace(/.{64}/g, '$&\n').replace(/\n$/, '')}\n-----END ${label}-----\n`;
}

function fromPem(text: string): ArrayBuffer {
  const body = text.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
  const bytes = Buffer.from(body, 'base64');
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
}

/**
 * Loads the local certificate authority kept in `dir`, or makes it there once (folder 0700, key 0600). Two
 * emulators starting at once agree on one: each makes its own in a private folder and renames it into
 * place, and the one that loses the rename reads the winner's. A damaged pair is an error that names the
 * folder, not a silent new authority nobody trusts yet.
 */
export async function loadLocalCa(dir: string): Promise<LocalCa> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700).catch(() => undefined);
  const home = path.join(dir, 'authority');
  const loaded = (await readAuthority(home)) ?? (await makeAuthority(dir, home));
  const { cert: authority, privateKey } = loaded;
  return {
    certFile: path.join(home, CA_CERT_FILE),
    certPem: loaded.certPem,
    issue: async ({ ips, dns }) => {
      const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
      const now = Date.now();
      const leaf = await x509.X509CertificateGenerator.create({
        serialNumber: serial(),
        subject: `CN=${ips[0] ?? dns[0] ?? 'localhost'}`,
        issuer: authority.subject,
        notBefore: new Date(now - DAY_MS),
        notAfter: new Date(now + SERVER_DAYS * DAY_MS),
        signingKey: privateKey,
        publicKey: keys.publicKey,
        signingAlgorithm: ALGORITHM,
        extensions: [
          new x509.BasicConstraintsExtension(false, undefined, true),
          new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
          new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
          new x509.SubjectAlternativeNameExtension([
            ...ips.map((value) => ({ type: 'ip' as const, value })),
            ...dns.map((value) => ({ type: 'dns' as const, value })),
          ]),
          await x509.AuthorityKeyIdentifierExtension.create(authority),
        ],
      });
      return {
        cert: leaf.toString('pem') + '\n',
        key: pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)),
      };
    },
  };
}

interface Authority {
  cert: x509.X509Certificate;
  certPem: string;
  privateKey: webcrypto.CryptoKey;
}

/** The authority in `home`, or null when there is none yet. */
async function readAuthority(home: string): Promise<Authority | null> {
  const certPem = await readFile(path.join(home, CA_CERT_FILE), 'utf8').catch(() => null);
  if (certPem === null) return null;
  try {
    const cert = new x509.X509Certificate(certPem);
    const keyPem = await readFile(path.join(home, CA_KEY_FILE), 'utf8');
    const privateKey = await webcrypto.subtle.importKey('pkcs8', fromPem(keyPem), ALGORITHM, false, ['sign']);
    return { cert, certPem, privateKey };
  } catch (error) {
    throw new Error(
      `the emulator's certificate authority in ${home} cannot be read (${error instanceof Error ? error.message : String(error)}); remove that folder to make a new one`,
    );
  }
}

async function makeAuthority(dir: string, home: string): Promise<Authority> {
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: 'CN=sdkpp emulator local CA, O=sdkpp',
    notBefore: new Date(now - DAY_MS),
    notAfter: new Date(now + CA_DAYS * DAY_MS),
    keys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const certPem = cert.toString('pem') + '\n';
  const draft = await mkdtemp(path.join(dir, 'authority-'));
  try {
    await writeFile(
      path.join(draft, CA_KEY_FILE),
      pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)),
      { mode: 0o600 },
    );
    await writeFile(path.join(draft, CA_CERT_FILE), certPem, { mode: 0o644 });
    await rename(draft, home);
  } catch (error) {
    await rm(draft, { recursive: true, force: true });
    const winner = await readAuthority(home);
    if (winner) return winner;
    throw error;
  }
  return { cert, certPem, privateKey: keys.privateKey };
}

function serial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  // Positive: the high bit clear.
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return Buffer.from(bytes).toString('hex');
}
