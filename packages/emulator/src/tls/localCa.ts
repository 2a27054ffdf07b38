import { createHash, webcrypto, X509Certificate } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';

// Certificates are made with @peculiar/x509 rather than the `openssl` command or node-forge: it signs with
// Node's own WebCrypto (ECDSA P-256 in milliseconds), is kept up to date, and needs no program on the
// machine. It is imported only when something must be signed (the first start, a new name, a certificate
// near its end): a start that finds its certificate reads two PEM files and checks them with node:crypto.
type X509Module = typeof import('@peculiar/x509');

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;
/** The authority lasts ten years: made once, trusted once. */
const CA_DAYS = 3650;
/** A server certificate lasts 397 days, the most a browser accepts. */
const SERVER_DAYS = 397;
/** A server certificate with less than this left is made again. */
const RENEW_BEFORE_MS = 30 * DAY_MS;

/** The authority's certificate file in its folder. */
export const CA_CERT_FILE = 'ca.pem';
const CA_KEY_FILE = 'ca-key.pem';

/** A server certificate and its key, PEM. */
export interface ServerCertificate {
  cert: string;
  key: string;
}

/** The names a server certificate is for. */
export interface ServerNames {
  ips: string[];
  dns: string[];
}

/** The emulator's local certificate authority: its certificate (to trust) and what it signs. */
export interface LocalCa {
  /** The authority's certificate file, for `NODE_EXTRA_CA_CERTS`. */
  readonly certFile: string;
  /** The authority's certificate, PEM. */
  readonly certPem: string;
  /**
   * A server certificate for these IP addresses and DNS names: the one kept from an earlier start while it
   * has a month left, else a new one, signed and kept.
   */
  serverCertificate(names: ServerNames): Promise<ServerCertificate>;
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

/**
 * Loads the local certificate authority kept in `dir`, or makes it there once (folder 0700, keys 0600). Two
 * emulators starting at once agree on one: each makes its own in a private folder and renames it into
 * place, and the one that loses the rename reads the winner's. A damaged authority is an error that names
 * the folder, not a silent new authority nobody trusts yet.
 */
export async function loadLocalCa(dir: string): Promise<LocalCa> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700).catch(() => undefined);
  const home = path.join(dir, 'authority');
  const certPem = (await readAuthority(home)) ?? (await makeAuthority(dir, home));
  const authority = new X509Certificate(certPem);
  return {
    certFile: path.join(home, CA_CERT_FILE),
    certPem,
    serverCertificate: async (names) => {
      const file = path.join(home, `server-${namesHash(names)}.pem`);
      const kept = await keptServerCertificate(file, authority);
      if (kept) return kept;
      const made = await issue(home, authority, names);
      await writeAtomically(file, made.cert + made.key);
      return made;
    },
  };
}

/** The authority's certificate in `home`, checked; null when there is none yet. */
async function readAuthority(home: string): Promise<string | null> {
  const certPem = await readFile(path.join(home, CA_CERT_FILE), 'utf8').catch(() => null);
  if (certPem === null) return null;
  try {
    const cert = new X509Certificate(certPem);
    if (!cert.ca) throw new Error('its certificate is not an authority');
    await readFile(path.join(home, CA_KEY_FILE), 'utf8');
    return certPem;
  } catch (error) {
    throw new Error(
      `the emulator's certificate authority in ${home} cannot be read (${error instanceof Error ? error.message : String(error)}); remove that folder to make a new one`,
    );
  }
}

async function makeAuthority(dir: string, home: string): Promise<string> {
  const x509 = await x509Module();
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
    const key = pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
    await writeFile(path.join(draft, CA_KEY_FILE), key, { mode: 0o600 });
    await writeFile(path.join(draft, CA_CERT_FILE), certPem, { mode: 0o644 });
    await rename(draft, home);
  } catch (error) {
    await rm(draft, { recursive: true, force: true });
    const winner = await readAuthority(home);
    if (winner !== null) return winner;
    throw error;
  }
  return certPem;
}

/** A kept server certificate (cert then key in one file) that `authority` issued and that has a month left. */
async function keptServerCertificate(
  file: string,
  authority: X509Certificate,
): Promise<ServerCertificate | null> {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  const split = text.indexOf('-----BEGIN PRIVATE KEY-----');
  if (split < 0) return null;
  try {
    const cert = text.slice(0, split);
    const parsed = new X509Certificate(cert);
    if (!parsed.checkIssued(authority) || !parsed.verify(authority.publicKey)) return null;
    if (new Date(parsed.validTo).getTime() - Date.now() < RENEW_BEFORE_MS) return null;
    return { cert, key: text.slice(split) };
  } catch {
    // A damaged kept certificate is made again.
    return null;
  }
}

async function issue(
  home: string,
  authority: X509Certificate,
  names: ServerNames,
): Promise<ServerCertificate> {
  const x509 = await x509Module();
  const keyPem = await readFile(path.join(home, CA_KEY_FILE), 'utf8');
  const signingKey = await webcrypto.subtle.importKey('pkcs8', fromPem(keyPem), ALGORITHM, false, ['sign']);
  const issuer = new x509.X509Certificate(authority.raw);
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const now = Date.now();
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: `CN=${names.ips[0] ?? names.dns[0] ?? 'localhost'}`,
    issuer: issuer.subject,
    notBefore: new Date(now - DAY_MS),
    notAfter: new Date(now + SERVER_DAYS * DAY_MS),
    signingKey,
    publicKey: keys.publicKey,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        ...names.ips.map((value) => ({ type: 'ip' as const, value })),
        ...names.dns.map((value) => ({ type: 'dns' as const, value })),
      ]),
      await x509.AuthorityKeyIdentifierExtension.create(issuer),
    ],
  });
  return {
    cert: leaf.toString('pem') + '\n',
    key: pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)),
  };
}

let loaded: Promise<X509Module> | undefined;

function x509Module(): Promise<X509Module> {
  loaded ??= import('@peculiar/x509').then((x509) => {
    // Node's webcrypto is the Crypto the library's types name after the DOM's (no DOM types here).
    x509.cryptoProvider.set(webcrypto as never);
    return x509;
  });
  return loaded;
}

async function writeAtomically(file: string, text: string): Promise<void> {
  // Written beside and renamed: a reader never sees half a key.
  const partial = `${file}.${process.pid}.partial`;
  await writeFile(partial, text, { mode: 0o600 });
  await rename(partial, file);
}

function namesHash(names: ServerNames): string {
  const key = [...names.ips, '|', ...names.dns].join(',');
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
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

function serial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  // Positive: the high bit clear.
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return Buffer.from(bytes).toString('hex');
}
