import { cpSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// ts-mls 2.0.0-rc.10 (the newest on the registry here) encodes the external_senders group context
// extension as one ExternalSender instead of RFC 9420's `ExternalSender external_senders<V>`, so davey
// and libdave cannot read a group it creates (dave-e2ee.md §3.2; fixed upstream in rc.12, commit
// 046f9a5). The tests build a copy of its dist with that one codec corrected, next to node_modules so
// that its own dependencies resolve, and import ts-mls from there. Nothing is committed from ts-mls.

const require = createRequire(import.meta.url);
const EXPECTED_VERSION = '2.0.0-rc.10';

// Each pair: the exact rc.10 text, and our correction.
const PATCHES: readonly [string, string][] = [
  [
    'import { varLenDataDecoder, varLenDataEncoder } from "./codec/variableLength.js";',
    'import { varLenDataDecoder, varLenDataEncoder, varLenTypeDecoder, varLenTypeEncoder } from "./codec/variableLength.js";',
  ],
  [
    'return [e.extensionType, encode(externalSenderEncoder, e.extensionData)];',
    'return [e.extensionType, encode(varLenTypeEncoder(externalSenderEncoder), [e.extensionData])];',
  ],
  [
    'const res = decode(externalSenderDecoder, extensionData);',
    'const res = decode(varLenTypeDecoder(externalSenderDecoder), extensionData)?.[0];',
  ],
];

/** The ts-mls module namespace, with RFC external_senders encoding. */
export type TsMls = typeof import('ts-mls');

/** Builds (once) and imports the corrected copy of ts-mls. */
export async function importPatchedTsMls(): Promise<TsMls> {
  // The package exports only its entry (dist/src/index.js), so the root is three levels up from it.
  const root = path.resolve(path.dirname(require.resolve('ts-mls')), '..', '..');
  const packageJson = path.join(root, 'package.json');
  const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
  if (version !== EXPECTED_VERSION) {
    throw new Error(
      `ts-mls ${version} installed; the external_senders patch is written for ${EXPECTED_VERSION}`,
    );
  }
  const target = path.resolve(root, '..', '.cache', `sdkpp-ts-mls-${version}-rfc-external-senders`);
  const entry = path.join(target, 'dist', 'src', 'index.js');
  if (!existsSync(entry)) {
    // Built under a temporary name and renamed, so a parallel worker never imports a half-copied tree.
    const staging = `${target}.${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    cpSync(path.join(root, 'dist'), path.join(staging, 'dist'), { recursive: true });
    writeFileSync(path.join(staging, 'package.json'), '{"type":"module"}\n');
    const file = path.join(staging, 'dist', 'src', 'extension.js');
    let text = readFileSync(file, 'utf8');
    for (const [from, to] of PATCHES) {
      if (!text.includes(from)) throw new Error(`ts-mls extension.js no longer contains: ${from}`);
      text = text.replace(from, to);
    }
    writeFileSync(file, text);
    try {
      renameSync(staging, target);
    } catch {
      rmSync(staging, { recursive: true, force: true }); // another worker won the race
    }
  }
  return (await import(pathToFileURL(entry).href)) as TsMls;
}
