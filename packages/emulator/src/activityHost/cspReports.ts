import type { IncomingMessage } from 'node:http';

import { mappingHint } from '../activities/framePolicy.js';

/** The largest violation report read (a browser's is well under 2 KB; the sample is kept, the rest refused). */
export const MAX_CSP_REPORT_BYTES = 16 * 1024;

/** How many blocked requests of one frame are logged; past it one line says the rest are not. */
export const BLOCKED_LINES_PER_FRAME = 50;

/** One request the game's frame made that its Content Security Policy blocked. */
export interface BlockedRequest {
  /** The frame that made it (its `frame_id`), when the report named one. */
  frameId: string | null;
  /** The blocked URL without its query or fragment (which may carry the game's own tokens). */
  url: string;
  /** The directive that blocked it, e.g. `connect-src`. */
  directive: string;
  /** What to do about it: the URL mapping that would let the request through the proxy. */
  hint: string;
}

/** A string field of a report, bounded. */
function field(report: Record<string, unknown>, name: string): string {
  const value = report[name];
  return typeof value === 'string' ? value.slice(0, 2048) : '';
}

/**
 * Reads a browser's Content Security Policy violation report (the `report-uri` form: `{"csp-report": {…}}`).
 * Resolves undefined for a body that is too large or not such a report; never rejects.
 */
export function readCspReport(req: IncomingMessage): Promise<BlockedRequest | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_CSP_REPORT_BYTES) {
        // Answered at once; the rest is read and dropped (the server's request timeout bounds it).
        chunks.length = 0;
        req.removeAllListeners('data');
        req.resume();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', () => resolve(undefined));
    req.on('end', () => resolve(blockedOf(Buffer.concat(chunks).toString('utf8'))));
  });
}

function blockedOf(text: string): BlockedRequest | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const report = (value as Record<string, unknown> | null)?.['csp-report'];
  if (typeof report !== 'object' || report === null) return undefined;
  const fields = report as Record<string, unknown>;
  let blocked: URL;
  let document: URL;
  try {
    blocked = new URL(field(fields, 'blocked-uri'));
    document = new URL(field(fields, 'document-uri'));
  } catch {
    // `inline`, `eval` and the like: the policy allows those, so nothing of them is reported here.
    return undefined;
  }
  const directive = field(fields, 'effective-directive') || field(fields, 'violated-directive');
  return {
    frameId: document.searchParams.get('frame_id'),
    url: `${blocked.origin}${blocked.pathname}`,
    directive: directive.split(' ')[0] ?? directive,
    hint: mappingHint(blocked).text,
  };
}
