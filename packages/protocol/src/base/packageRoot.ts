import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The nearest folder at or above `startDir` whose package.json is named `packageName`, or `undefined`.
 *
 * The same code runs from src/ (vitest, tsx) and bundled into dist/*.js and dist/*.cjs, at different
 * depths, so the package root is found by walking up rather than by a fixed relative path.
 */
export function findPackageRoot(startDir: string, packageName: string): string | undefined {
  for (let dir = path.resolve(startDir); ; dir = path.dirname(dir)) {
    if (readPackageName(path.join(dir, 'package.json')) === packageName) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

function readPackageName(file: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (
      typeof parsed === 'object' &&
      parsed !== null &&
      'name' in parsed &&
      typeof parsed.name === 'string'
    ) {
      return parsed.name;
    }
  } catch {
    // No package.json here, or an unreadable one: keep walking up.
  }
  return undefined;
}
