import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** One runnable code block of a guide: a fenced block whose info string is exactly `ts`. */
export interface GuideBlock {
  /** The guide's file name, e.g. `lobbies.md`. */
  guide: string;
  /** 1-based position among the guide's runnable blocks. */
  index: number;
  /** 1-based line of the opening fence, for messages that point at the guide. */
  line: number;
  /** The block's first `//` comment line, or else the heading it sits under. */
  title: string;
  /** The module's source. */
  code: string;
  /**
   * Lines the output must contain, in order: the contents of a ```text block that is the next fenced block
   * after this one under the same heading. Undefined when the guide states no output.
   */
  expectedOutput: string[] | undefined;
}

interface Fence {
  info: string;
  line: number;
  body: string;
  /** The nearest heading above the fence, and how many headings came before it (to tell sections apart). */
  heading: string;
  section: number;
}

const FENCE_OPEN = /^(`{3,})(.*)$/;
const HEADING = /^#{1,6}\s+(.*?)\s*#*\s*$/;

/** Every fenced block of a markdown text, with the heading it sits under. */
function fencesOf(markdown: string): Fence[] {
  const lines = markdown.split('\n');
  const fences: Fence[] = [];
  let heading = '';
  let section = 0;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    const open = FENCE_OPEN.exec(line);
    if (open) {
      const ticks = open[1] ?? '```';
      const body: string[] = [];
      let j = i + 1;
      // A fence closes on a line of at least as many backticks and nothing else (CommonMark).
      while (j < lines.length && !new RegExp(`^${ticks}\`*\\s*$`).test(lines[j] ?? '')) {
        body.push(lines[j] ?? '');
        j += 1;
      }
      fences.push({ info: (open[2] ?? '').trim(), line: i + 1, body: body.join('\n'), heading, section });
      i = j;
      continue;
    }
    const title = HEADING.exec(line);
    if (title) {
      heading = title[1] ?? '';
      section += 1;
    }
  }
  return fences;
}

function titleOf(code: string, heading: string): string {
  for (const line of code.split('\n')) {
    const comment = /^\s*\/\/\s*(.+?)\s*$/.exec(line);
    if (comment?.[1]) return comment[1];
  }
  return heading || 'untitled block';
}

/** The runnable blocks of one guide, in order. */
export function runnableBlocks(guide: string, markdown: string): GuideBlock[] {
  const fences = fencesOf(markdown);
  const blocks: GuideBlock[] = [];
  fences.forEach((fence, position) => {
    if (fence.info !== 'ts') return;
    const next = fences[position + 1];
    const stated = next?.info === 'text' && next.section === fence.section ? next.body : undefined;
    blocks.push({
      guide,
      index: blocks.length + 1,
      line: fence.line,
      title: titleOf(fence.body, fence.heading),
      code: fence.body.endsWith('\n') ? fence.body : `${fence.body}\n`,
      expectedOutput: stated
        ?.split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== ''),
    });
  });
  return blocks;
}

/** The guides: every markdown file directly in `docsDir` (the generated API reference lives in a subdirectory). */
export function guideFiles(docsDir: string): string[] {
  return readdirSync(docsDir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => entry.name)
    .sort();
}

/** Every guide's runnable blocks, by guide file name. */
export function collectGuides(docsDir: string): Map<string, GuideBlock[]> {
  const guides = new Map<string, GuideBlock[]>();
  for (const name of guideFiles(docsDir)) {
    guides.set(name, runnableBlocks(name, readFileSync(path.join(docsDir, name), 'utf8')));
  }
  return guides;
}

/**
 * Whether the output holds every expected line, in order: each expected line must be part of a later output
 * line than the one before it matched.
 */
export function containsInOrder(output: string, expected: string[]): { ok: boolean; missing?: string } {
  const lines = output.split('\n');
  let at = 0;
  for (const want of expected) {
    while (at < lines.length && !(lines[at] ?? '').includes(want)) at += 1;
    if (at >= lines.length) return { ok: false, missing: want };
    at += 1;
  }
  return { ok: true };
}
