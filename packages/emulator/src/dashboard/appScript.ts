import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { findPackageRoot } from '@sdkpp/protocol';

/**
 * Where the build writes the dashboard's browser script (browser/app.ts without its types; see
 * scripts/dashboard-script.ts), relative to the package root.
 */
export const DASHBOARD_SCRIPT_FILE = 'dist/dashboard/app.js';

let loaded: string | undefined;

/**
 * The dashboard's browser script, served at `/dashboard/app.js`, read once from the package's dist/: the same
 * file whether the emulator runs from dist/ or from src/ (tests, tsx), which is why the build must have run.
 * An Error that says so when the file is missing.
 */
export function dashboardScript(): string | Error {
  if (loaded !== undefined) return loaded;
  const root = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)), '@sdkpp/emulator');
  const file = root === undefined ? DASHBOARD_SCRIPT_FILE : path.join(root, DASHBOARD_SCRIPT_FILE);
  try {
    loaded = readFileSync(file, 'utf8');
    return loaded;
  } catch (error) {
    return new Error(
      `the dashboard's script ${file} cannot be read (${(error as Error).message}): run \`npm run build:ts\``,
    );
  }
}
