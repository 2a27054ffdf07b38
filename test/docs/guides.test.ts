/**
 * The guides' snippets really run. Every fenced block of docs/*.md whose info string is exactly `ts` is a
 * complete ES module: it is written into a scratch directory inside the repository, run with
 * `node --import tsx` (`sdkpp`, `@sdkpp/emulator`, … resolve through the package's exports to dist/, as for
 * a game that installed it) against the real emulator it starts itself, and must exit 0 within 30 s. When
 * the next fenced block under the same heading is a `text` block, the output must contain its lines in
 * order. All blocks are type-checked together with the repository's compiler settings and paths. Blocks
 * marked `ts fragment` are neither run nor checked.
 */
import { mkdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { collectGuides, containsInOrder, type GuideBlock } from './guideBlocks.js';
import { limiter, runSnippet, writeRunConfig, type SnippetRun } from './snippetRunner.js';
import { typecheckSnippets } from './snippetTypecheck.js';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const DOCS_DIR = path.join(REPO_ROOT, 'docs');
const SNIPPETS_DIR = path.join(REPO_ROOT, '.guide-snippets');
/** Per run, so two runs of this file never share files. */
const WORK_DIR = path.join(SNIPPETS_DIR, `run-${process.pid}`);
/** Pages in docs/ that are references rather than guides: they need no runnable block (any they have runs). */
const NOT_GUIDES = new Set(['architecture.md', 'bindings-coverage.md']);
const SNIPPET_TIMEOUT_MS = 30_000;
/** Two cores: two snippets at a time (each runs an emulator and its clients); tsc takes a slot too. */
const CONCURRENCY = 2;

const guides = collectGuides(DOCS_DIR);
const blocks = [...guides.values()].flat();
const fileOf = (block: GuideBlock): string =>
  path.join(WORK_DIR, `${block.guide.replace(/\.md$/, '')}-${block.index}.ts`);

/** Shared by every run and the type check, so at most CONCURRENCY child processes work at once. */
const slot = limiter(CONCURRENCY);
let runConfig = '';

beforeAll(() => {
  mkdirSync(WORK_DIR, { recursive: true });
  for (const block of blocks) writeFileSync(fileOf(block), block.code);
  runConfig = writeRunConfig(REPO_ROOT, WORK_DIR);
});

afterAll(() => {
  rmSync(WORK_DIR, { recursive: true, force: true });
  try {
    rmdirSync(SNIPPETS_DIR); // only when no other run is using it
  } catch {
    // Another run's directory is still there.
  }
});

/** The end of a stream, enough to see why a snippet failed. */
function tail(text: string, lines = 40): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

function report(block: GuideBlock, run: SnippetRun): string {
  const how = run.timedOut ? `timed out after ${SNIPPET_TIMEOUT_MS} ms` : `exited ${String(run.code)}`;
  return [
    `docs/${block.guide}:${block.line} (block #${block.index}) ${how} in ${run.ms} ms`,
    `--- stdout ---\n${tail(run.stdout)}`,
    `--- stderr ---\n${tail(run.stderr)}`,
  ].join('\n');
}

describe('guides (docs/*.md)', () => {
  it('there are guides', () => {
    expect([...guides.keys()]).toContain('README.md');
  });

  for (const [guide, guideBlocks] of guides) {
    if (NOT_GUIDES.has(guide)) continue;
    it(`${guide} has at least one runnable block`, () => {
      expect(guideBlocks.length, `docs/${guide} has no \`\`\`ts block`).toBeGreaterThan(0);
    });
  }

  // Concurrent tests, throttled by the shared slots: a test's time includes its wait for a slot.
  describe.concurrent('runnable blocks', () => {
    // First, so the long tsc run overlaps the snippets instead of following them.
    it(
      'every runnable block type-checks (tsc --noEmit with the repository settings and paths)',
      { timeout: 300_000 },
      async ({ expect }) => {
        const result = await slot(() => typecheckSnippets(REPO_ROOT, WORK_DIR));
        const withGuideNames = blocks.reduce(
          (text, block) => text.replaceAll(path.basename(fileOf(block)), `${block.guide} #${block.index}`),
          result.diagnostics,
        );
        expect(result.ok, withGuideNames).toBe(true);
      },
    );

    for (const block of blocks) {
      it(`${block.guide} #${block.index}: ${block.title}`, { timeout: 240_000 }, async ({ expect }) => {
        const run = await slot(() => runSnippet(fileOf(block), REPO_ROOT, runConfig, SNIPPET_TIMEOUT_MS));
        expect(run.timedOut, report(block, run)).toBe(false);
        expect(run.code, report(block, run)).toBe(0);
        if (block.expectedOutput) {
          const match = containsInOrder(run.stdout, block.expectedOutput);
          expect(match.ok, `missing "${match.missing ?? ''}" (in order)\n${report(block, run)}`).toBe(true);
        }
      });
    }
  });
});
