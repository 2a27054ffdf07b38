// What a built prebuild asks of the machine that loads it, read from the file itself, so that a prebuild
// that would not load on its promised floor fails the build here instead of on a player's machine.
// - ELF (Linux): the highest GLIBC_ and GLIBCXX_ symbol versions it needs (readelf -V), and its needed
//   libraries.
// - PE (Windows): the DLLs it imports (MinGW's objdump -p), and that node.exe is only delay-loaded.
// - Mach-O (macOS): read here directly: the CPU type, the file type, and the undefined symbols left to the
//   host (two-level namespace ordinal "dynamic lookup"), which must all be Node-API's.
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';

import { run } from '../npm-source.mjs';

function compareVersions(a, b) {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) {
    const diff = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

function highest(versions) {
  return versions.sort(compareVersions).at(-1);
}

/** `{ glibc, glibcxx, needed }` of a Linux shared object: glibc and glibcxx are undefined when not needed. */
export function elfRequirements(file) {
  const text = run('readelf', ['-V', '-d', '-W', file]);
  const glibc = [...text.matchAll(/Name: GLIBC_([0-9.]+)/g)].map((m) => m[1]);
  const glibcxx = [...text.matchAll(/Name: GLIBCXX_([0-9.]+)/g)].map((m) => m[1]);
  const needed = [...text.matchAll(/\(NEEDED\)\s+Shared library: \[([^\]]+)\]/g)].map((m) => m[1]);
  return { glibc: highest(glibc), glibcxx: highest(glibcxx), needed };
}

/** Whether version `a` is at most `b` ("2.31" <= "2.31"). */
export function versionAtMost(a, b) {
  return compareVersions(a, b) <= 0;
}

/**
 * `{ imports, delayLoadsNode }` of a Windows addon: the DLLs in its import table, and whether it names
 * node.exe for a delay load. GNU ld leaves the PE header's delay-import directory empty (mingw-w64's
 * __delayLoadHelper2 reads the descriptors dlltool wrote, not the directory), so the DLL's name is looked
 * for in the file itself, and node.exe must not be in the import table.
 */
export function peImports(file, objdump) {
  const text = run(objdump, ['-p', file]);
  const imports = [...text.matchAll(/^\s*DLL Name: (\S+)/gm)].map((m) => m[1]);
  const delayLoadsNode = readFileSync(file).includes(Buffer.from('node.exe\0', 'latin1'));
  return { imports, delayLoadsNode };
}

const MH_MAGIC_64 = 0xfeedfacf;
const LC_SYMTAB = 0x2;
const LC_CODE_SIGNATURE = 0x1d;
const N_EXT = 0x01;
const N_TYPE = 0x0e;
const N_UNDF = 0x0;
const DYNAMIC_LOOKUP_ORDINAL = 0xfe;
const CPU = { 0x01000007: 'x86_64', 0x0100000c: 'arm64' };
const FILETYPE = { 6: 'dylib', 8: 'bundle' };

/**
 * `{ cpu, fileType, dynamicLookup, fromLibraries, signed }` of a 64-bit Mach-O: the undefined external
 * symbols left to the loading process (dynamic lookup), the count of those bound to a named library
 * (libSystem), and whether it carries a code signature (Apple silicon runs no unsigned code; ad hoc will do).
 */
export function machORequirements(file) {
  const bytes = readFileSync(file);
  if (bytes.length < 32 || bytes.readUInt32LE(0) !== MH_MAGIC_64)
    throw new Error(`${file} is not a 64-bit Mach-O`);
  const cpu = CPU[bytes.readUInt32LE(4)] ?? `cpu 0x${bytes.readUInt32LE(4).toString(16)}`;
  const fileType = FILETYPE[bytes.readUInt32LE(12)] ?? `type ${bytes.readUInt32LE(12)}`;
  const commands = bytes.readUInt32LE(16);
  let offset = 32;
  const dynamicLookup = [];
  let fromLibraries = 0;
  let signed = false;
  for (let i = 0; i < commands; i += 1) {
    if (offset + 8 > bytes.length) throw new Error(`${file}: load command ${i} runs past the file`);
    const command = bytes.readUInt32LE(offset);
    const size = bytes.readUInt32LE(offset + 4);
    if (size < 8) throw new Error(`${file}: load command ${i} has size ${size}`);
    if (command === LC_CODE_SIGNATURE) signed = true;
    if (command === LC_SYMTAB) {
      const symbols = bytes.readUInt32LE(offset + 8);
      const count = bytes.readUInt32LE(offset + 12);
      const strings = bytes.readUInt32LE(offset + 16);
      for (let s = 0; s < count; s += 1) {
        const entry = symbols + s * 16;
        if (entry + 16 > bytes.length) throw new Error(`${file}: symbol ${s} runs past the file`);
        const type = bytes[entry + 4];
        if ((type & N_EXT) === 0 || (type & N_TYPE) !== N_UNDF) continue;
        const nameStart = strings + bytes.readUInt32LE(entry);
        const nameEnd = bytes.indexOf(0, nameStart);
        const name = bytes.toString('latin1', nameStart, nameEnd < 0 ? bytes.length : nameEnd);
        const ordinal = bytes.readUInt16LE(entry + 6) >> 8;
        if (ordinal === DYNAMIC_LOOKUP_ORDINAL) dynamicLookup.push(name.replace(/^_/, ''));
        else fromLibraries += 1;
      }
    }
    offset += size;
  }
  return { cpu, fileType, dynamicLookup, fromLibraries, signed };
}
