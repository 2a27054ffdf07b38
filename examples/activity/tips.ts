/**
 * A third-party service the game uses, on an origin of its own (as a real game's leaderboard or content API
 * would be): it answers `GET /tip` with a tip for the player. The Activity's frame may not reach it directly
 * (the platform's Content Security Policy allows the proxy origin only), so the developer portal maps `/tips`
 * to it and the page rewrites its URLs with the SDK's `patchUrlMappings`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const TIPS = [
  'The star never lands on the cell it just left.',
  'Five stars win a round; a new round starts three seconds later.',
  'Two clicks on the same star score once: the server decides who was first.',
];

/** A running tips service. */
export interface TipsServer {
  /** Its origin, e.g. `http://127.0.0.1:5174`: the `/tips` URL mapping points here. */
  url: string;
  close(): Promise<void>;
}

/** Starts the tips service on a free port. */
export async function startTipsServer(): Promise<TipsServer> {
  let next = 0;
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/tip') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    const tip = TIPS[next % TIPS.length];
    next += 1;
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ tip }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
