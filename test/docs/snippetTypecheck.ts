import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The result of type-checking the extracted snippets. */
export interface TypecheckResult {
  ok: boolean;
  /** tsc's diagnostics, file names relative to the snippet directory. */
  diagnostics: string;
}

/**
 * Type-checks every `.ts` file in `dir` (a directory inside the repository) with the repository's compiler
 * settings and paths, through a tsconfig there that extends the repository's.
 */
export function typecheckSnippets(repoRoot: string, dir: string): Promise<TypecheckResult> {
  const config = {
    extends: path.relative(dir, path.join(repoRoot, 'tsconfig.json')),
    include: ['./*.ts'],
    exclude: [],
  };
  writeFileSync(path.join(dir, 'tsconfig.json'), `${JSON.stringify(config, null, 2)}\n`);
  const tsc = createRequire(path.join(repoRoot, 'package.json')).resolve('typescript/bin/tsc');
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [tsc, '--noEmit', '--pretty', 'false', '-p', path.join(dir, 'tsconfig.json')],
      { cwd: dir, maxBuffer: 16 * 1024 * 1024, timeout: 180_000 },
      (error, stdout, stderr) => {
        resolve({ ok: error === null, diagnostics: `${stdout}${stderr}`.trim() });
      },
    );
  });
}
