/**
 * The emulator dashboard's browser script (src/dashboard/browser/app.ts) as the page loads it: a
 * classic script in a file of its own, not a module of the bundle. TypeScript's emitter only removes its types
 * and keeps the rest as written (esbuild would reprint it), so what a tester sees in the browser's developer
 * tools reads like the source. tsup.config.ts builds it after every build; the emulator reads the output
 * (src/dashboard/appScript.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import ts from 'typescript';

/** The script's source, relative to the package root. */
export const DASHBOARD_SCRIPT_SOURCE = 'src/dashboard/browser/app.ts';
/** Where the build writes it, relative to the package root. */
export const DASHBOARD_SCRIPT_OUTPUT = 'dist/dashboard/app.js';

/** The browser script made from the source text; throws on a syntax error (type errors are the type check's). */
export function transpileDashboardScript(source: string): string {
  const result = ts.transpileModule(source, {
    fileName: DASHBOARD_SCRIPT_SOURCE,
    reportDiagnostics: true,
    compilerOptions: { target: ts.ScriptTarget.ES2020, module: ts.ModuleKind.ESNext },
  });
  const problems = result.diagnostics ?? [];
  if (problems.length > 0) {
    const text = problems.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('\n');
    throw new Error(`${DASHBOARD_SCRIPT_SOURCE}: ${text}`);
  }
  return result.outputText;
}

/** Builds the script of the package at `packageRoot` into its dist/. */
export function buildDashboardScript(packageRoot = '.'): void {
  const output = path.join(packageRoot, DASHBOARD_SCRIPT_OUTPUT);
  const source = readFileSync(path.join(packageRoot, DASHBOARD_SCRIPT_SOURCE), 'utf8');
  mkdirSync(path.dirname(output), { recursive: true });
  writeFileSync(output, transpileDashboardScript(source));
}
