/** Where the game's documents send their Content Security Policy violation reports (the host owns the path). */
export const CSP_REPORT_PATH = '/.emulator/activity/csp-report';

/**
 * The Content Security Policy of the game's documents, as the platform puts one on every document its Activity
 * proxy serves: the game may load and connect to its own proxy origin only (`'self'` plus the same host's
 * WebSocket scheme), so everything else has to go through a URL mapping. Allowed beyond it, because the
 * platform allows them too and games rely on them: inline and evaluated scripts and WebAssembly (game engines),
 * `data:` and `blob:` for images, media, fonts, workers and fetches of generated content, and the platform's
 * CDN (here the emulator's origin, which serves avatars and attachments) for images and media. Violations are
 * reported to {@link CSP_REPORT_PATH}, so the host page can say which mapping would allow each request.
 */
export function framePolicy(proxyOrigin: string, cdnOrigin: string): string {
  const proxy = new URL(proxyOrigin);
  const socket = `${proxy.protocol === 'https:' ? 'wss' : 'ws'}://${proxy.host}`;
  const self = `'self' ${proxy.origin}`;
  return [
    `default-src ${self}`,
    `script-src ${self} 'unsafe-inline' 'unsafe-eval' 'wasm-unsafe-eval' blob:`,
    `style-src ${self} 'unsafe-inline'`,
    `img-src ${self} data: blob: ${cdnOrigin}`,
    `media-src ${self} data: blob: ${cdnOrigin}`,
    `font-src ${self} data:`,
    `connect-src ${self} ${socket} data: blob:`,
    `worker-src ${self} blob:`,
    `frame-src ${self}`,
    "object-src 'none'",
    "base-uri 'self'",
    `report-uri ${CSP_REPORT_PATH}`,
  ].join('; ');
}

/** The URL mapping that would let the game reach `blocked` (an absolute URL outside the proxy). */
export function mappingHint(blocked: URL): { prefix: string; target: string; text: string } {
  const target = blocked.host;
  // A prefix from the host's labels (`api.example.com` → `/api-example-com`): unique per host, and a valid path.
  const prefix = `/${target.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;
  return {
    prefix,
    target,
    text:
      `add a URL mapping ${prefix} -> ${blocked.protocol}//${target} and request it through the proxy ` +
      `(patchUrlMappings([{ prefix: '${prefix}', target: '${target}' }]) rewrites such URLs)`,
  };
}
