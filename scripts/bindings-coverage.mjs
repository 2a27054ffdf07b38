#!/usr/bin/env node
/**
 * The bindings coverage table: reads bindings/coverage.json (every class, method, enum and free function of
 * the C++ SDK with its status in sdkpp/bindings), checks every claim against the built bindings
 * (dist/bindings.js, by reflection), and writes docs/bindings-coverage.md.
 *
 *   node scripts/bindings-coverage.mjs           check the claims, then write the page
 *   node scripts/bindings-coverage.mjs --check   check the claims and that the page is current; write nothing
 *   --data <file> / --page <file>                another list or page (the test feeds it false claims)
 *
 * Claims checked: an `implemented` or `extension` method exists on the bindings class (static where the
 * entry says so), a `planned` or `not-applicable` one does not (else it is done and the entry is stale), and
 * every PascalCase method of every exported bindings class has an entry. camelCase members (`toCore`,
 * `fromCore`, `core`) are the bridge to the idiomatic API, not SDK surface, and are not listed.
 * Exits 1 with one line per problem.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import console from 'node:console';
import process from 'node:process';

import * as prettier from 'prettier';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The SDK package's folder: its bindings/ and their build in dist/.
const sdk = path.join(root, 'packages', 'sdkpp');
const { values: args } = parseArgs({
  options: { check: { type: 'boolean' }, data: { type: 'string' }, page: { type: 'string' } },
});
const DATA = path.resolve(args.data ?? path.join(sdk, 'bindings', 'coverage.json'));
const PAGE = path.resolve(args.page ?? path.join(root, 'docs', 'bindings-coverage.md'));
const BUILT = path.join(sdk, 'dist', 'bindings.js');

const STATUSES = {
  implemented: { label: '✅ implemented', meaning: 'on the bindings class under the C++ name' },
  extension: { label: '➕ extension', meaning: 'sdkpp only, beyond the C++ SDK' },
  'not-applicable': {
    label: '➖ not applicable',
    meaning: 'no meaning for a Node or Electron game (why given)',
  },
  planned: { label: '🕓 planned', meaning: 'not built yet (what is missing given)' },
};
const ON_BINDINGS = new Set(['implemented', 'extension']);

const check = args.check === true;
const problems = [];

if (!existsSync(BUILT)) {
  console.error('packages/sdkpp/dist/bindings.js is missing: run `npm run build:ts` first');
  process.exit(1);
}
const data = JSON.parse(readFileSync(DATA, 'utf8'));
const bindings = await import(pathToFileURL(BUILT).href);

checkClaims();
const page = await render();
if (check) {
  const current = existsSync(PAGE) ? readFileSync(PAGE, 'utf8') : '';
  if (current !== page) problems.push(`${path.relative(root, PAGE)} is stale: run \`npm run docs:bindings\``);
} else if (problems.length === 0) {
  writeFileSync(PAGE, page);
}
for (const problem of problems) console.error(problem);
if (problems.length > 0) {
  if (builtIsStale())
    console.error('(dist/bindings.js is older than bindings/: run `npm run build:ts` first)');
  process.exit(1);
}
console.log(`${check ? 'checked' : 'wrote'} ${path.relative(root, PAGE)}: ${summary()}`);

/** True when a bindings source file changed after the build the claims were checked against. */
function builtIsStale() {
  const built = statSync(BUILT).mtimeMs;
  const sources = path.join(sdk, 'bindings');
  return readdirSync(sources).some(
    (f) => f.endsWith('.ts') && statSync(path.join(sources, f)).mtimeMs > built,
  );
}

/** True for a class (as opposed to a function or an enum object) among the bindings' exports. */
function isClass(value) {
  return typeof value === 'function' && /^class\b/.test(Function.prototype.toString.call(value));
}

/** The SDK-shaped methods a class has: PascalCase, own, function-valued; static ones apart. */
function methodsOf(cls) {
  const named = (target) =>
    Object.getOwnPropertyNames(target).filter(
      (name) =>
        /^[A-Z]/.test(name) && typeof Object.getOwnPropertyDescriptor(target, name)?.value === 'function',
    );
  return { instance: new Set(named(cls.prototype)), static: new Set(named(cls)) };
}

/** The value at a dotted export path such as `Client.Status`. */
function exported(dotted) {
  return dotted.split('.').reduce((value, key) => (value == null ? undefined : value[key]), bindings);
}

function checkEntry(where, entry, inherited) {
  const status = entry.status ?? inherited?.status;
  if (!(status in STATUSES)) problems.push(`${where}: unknown status "${status}"`);
  if (
    (status === 'planned' || status === 'not-applicable' || status === 'extension') &&
    !(entry.why ?? inherited?.why)
  )
    problems.push(`${where}: a ${status} entry says why`);
  return status;
}

function checkClaims() {
  for (const fn of data.functions) {
    const status = checkEntry(`function ${fn.name}`, fn);
    const value = bindings[fn.name];
    if (ON_BINDINGS.has(status) && (typeof value !== 'function' || isClass(value)))
      problems.push(`function ${fn.name} is marked ${status} but sdkpp/bindings exports no such function`);
    if (!ON_BINDINGS.has(status) && typeof value === 'function')
      problems.push(`function ${fn.name} is marked ${status} but sdkpp/bindings exports it`);
  }
  for (const en of data.enums) {
    const status = checkEntry(`enum ${en.name}`, en);
    if (!ON_BINDINGS.has(status)) continue;
    const value = en.bindings ? exported(en.bindings) : undefined;
    const numeric =
      value && typeof value === 'object' && Object.values(value).some((v) => typeof v === 'number');
    if (!numeric)
      problems.push(`enum ${en.name} is marked ${status} but ${en.bindings ?? '(no path)'} is no enum`);
  }

  const listed = new Set();
  for (const cls of data.classes) {
    listed.add(cls.name);
    const value = bindings[cls.name];
    const has = isClass(value) ? methodsOf(value) : undefined;
    if (cls.status && ON_BINDINGS.has(cls.status))
      problems.push(`class ${cls.name}: a whole class can only be planned or not applicable`);
    if (cls.status && has)
      problems.push(`class ${cls.name} is marked ${cls.status} but sdkpp/bindings exports it`);
    const names = new Set();
    for (const method of cls.methods) {
      const where = `${cls.name}.${method.name}`;
      if (names.has(method.name)) problems.push(`${where} is listed twice`);
      names.add(method.name);
      const status = checkEntry(where, method, cls);
      const present = has ? (method.static ? has.static : has.instance).has(method.name) : false;
      const elsewhere = has ? (method.static ? has.instance : has.static).has(method.name) : false;
      if (ON_BINDINGS.has(status) && !present)
        problems.push(
          elsewhere
            ? `${where} is ${method.static ? '' : 'not '}static in the list but the other way on the bindings class`
            : `${where} is marked ${status} but the bindings class has no such method`,
        );
      if (!ON_BINDINGS.has(status) && (present || elsewhere))
        problems.push(`${where} is marked ${status} but the bindings class has it: mark it implemented`);
    }
    if (has) {
      for (const name of [...has.instance, ...has.static])
        if (!names.has(name))
          problems.push(`${cls.name}.${name} is on the bindings class but not in the list`);
    }
  }
  for (const [name, value] of Object.entries(bindings))
    if (isClass(value) && !listed.has(name))
      problems.push(`class ${name} is exported by sdkpp/bindings but not listed`);
}

/** Counts of methods by status, over every class. */
function counts(classes = data.classes) {
  const result = Object.fromEntries(Object.keys(STATUSES).map((s) => [s, 0]));
  for (const cls of classes) for (const m of cls.methods) result[m.status ?? cls.status] += 1;
  return result;
}

function summary() {
  const c = counts();
  return Object.entries(c)
    .map(([status, n]) => `${n} ${status}`)
    .join(', ');
}

function notesOf(entry, inherited) {
  const parts = [];
  if (entry.cpp) parts.push(`C++ \`${entry.cpp}\``);
  const why = entry.why ?? (entry.status ? undefined : inherited?.why);
  if (why) parts.push(why);
  if (entry.note) parts.push(entry.note);
  return parts.join('; ').replaceAll('|', '\\|');
}

function methodRow(method, cls) {
  const name = `${method.static ? 'static ' : ''}\`${method.name}()\``;
  return `| ${name} | ${STATUSES[method.status ?? cls.status].label} | ${notesOf(method, cls)} |`;
}

async function render() {
  const lines = [];
  const total = counts();
  const methodCount = Object.values(total).reduce((a, b) => a + b, 0);
  lines.push(
    '# Bindings coverage',
    '',
    '<!-- Generated by `npm run docs:bindings` from bindings/coverage.json; edit that file, not this page. -->',
    '',
    `Every class, method, enum and free function of the C++ SDK (\`discordpp\` ${data.sdkVersion}) and what`,
    '[`sdkpp/bindings`](engine-plugins.md) does with it. The bindings keep the C++ names, take callbacks that',
    'receive a `ClientResult`, and deliver them through `RunCallbacks()`. The list is checked against the built',
    'bindings on every test run: a method marked implemented exists on the bindings class, and every method of a',
    'bindings class is listed.',
    '',
    `The surface listed: ${data.surface}.`,
    '',
    `## Summary: ${methodCount} methods in ${data.classes.length} classes`,
    '',
    '| Status | Methods | Meaning |',
    '| --- | --- | --- |',
  );
  for (const [status, { label, meaning }] of Object.entries(STATUSES))
    lines.push(`| ${label} | ${total[status]} | ${meaning} |`);
  lines.push(
    '',
    '| Class | Implemented | Extension | Not applicable | Planned |',
    '| --- | --- | --- | --- | --- |',
  );
  for (const cls of data.classes) {
    const c = counts([cls]);
    const anchor = cls.name.toLowerCase();
    lines.push(
      `| [${cls.name}](#${anchor}) | ${c.implemented} | ${c.extension} | ${c['not-applicable']} | ${c.planned} |`,
    );
  }

  lines.push('', '## Free functions', '', '| Function | Status | Notes |', '| --- | --- | --- |');
  for (const fn of data.functions)
    lines.push(`| \`${fn.name}()\` | ${STATUSES[fn.status].label} | ${notesOf(fn)} |`);

  lines.push(
    '',
    '## Enums',
    '',
    '| C++ enum | In the bindings | Status | Notes |',
    '| --- | --- | --- | --- |',
  );
  for (const en of data.enums)
    lines.push(
      `| \`${en.name}\` | ${en.bindings ? `\`${en.bindings}\`` : ''} | ${STATUSES[en.status].label} | ${notesOf(en)} |`,
    );

  lines.push('', '## Classes');
  for (const cls of data.classes) {
    lines.push('', `### ${cls.name}`, '');
    if (cls.status) lines.push(`${STATUSES[cls.status].label}: ${cls.why}`, '');
    const areas = [...new Set(cls.methods.map((m) => m.area).filter(Boolean))];
    const groups =
      areas.length > 0
        ? areas.map((a) => [a, cls.methods.filter((m) => m.area === a)])
        : [[null, cls.methods]];
    for (const [area, methods] of groups) {
      if (area) lines.push(`#### ${area}`, '');
      lines.push('| Method | Status | Notes |', '| --- | --- | --- |');
      for (const method of methods) lines.push(methodRow(method, cls));
      lines.push('');
    }
  }
  const text = lines.join('\n') + '\n';
  const options = (await prettier.resolveConfig(PAGE)) ?? {};
  return prettier.format(text, { ...options, filepath: PAGE });
}
