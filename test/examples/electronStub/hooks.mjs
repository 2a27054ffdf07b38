import { URL } from 'node:url';

// Module hooks for running the built Electron main process under Node: `electron` resolves to the stand-in
// next to this file, and `sdkpp` and `@sdkpp/*` resolve as from the repository (the build lives in a scratch directory).
const stub = new URL('./electron.mjs', import.meta.url).href;
const repository = new URL('../../../package.json', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'electron') return { url: stub, shortCircuit: true };
  if (specifier === 'sdkpp' || specifier.startsWith('sdkpp/') || specifier.startsWith('@sdkpp/')) {
    return nextResolve(specifier, { ...context, parentURL: repository });
  }
  return nextResolve(specifier, context);
}
