import type { IncomingMessage } from 'node:http';

/** Why a request body was not read: over the limit, cut off by the sender, or too slow to arrive. */
export type BodyReadFailure = 'too-large' | 'aborted' | 'timeout';

/**
 * Reads the whole body of `request`, never more than `limit` bytes: a larger declared length is refused before
 * reading, a larger stream stops being buffered at the limit. With `timeoutMs`, a sender that stalls is cut off
 * then. Never rejects. After a failure the rest is drained and dropped, so the socket stays usable for the
 * error response.
 */
export function readBoundedBody(
  request: IncomingMessage,
  limit: number,
  timeoutMs?: number,
): Promise<Buffer | BodyReadFailure> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let timer: NodeJS.Timeout | undefined;
    const finish = (outcome: Buffer | BodyReadFailure): void => {
      clearTimeout(timer);
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onAborted);
      request.off('aborted', onAborted);
      if (!Buffer.isBuffer(outcome)) request.resume();
      resolve(outcome);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) finish('too-large');
      else chunks.push(chunk);
    };
    const onEnd = (): void => finish(Buffer.concat(chunks, size));
    const onAborted = (): void => finish('aborted');
    const declared = request.headers['content-length'];
    if (declared !== undefined && Number(declared) > limit) {
      finish('too-large');
      return;
    }
    if (timeoutMs !== undefined) timer = setTimeout(() => finish('timeout'), timeoutMs);
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onAborted);
    request.on('aborted', onAborted);
  });
}
