import type { IncomingMessage } from 'node:http';

import { Busboy } from '@fastify/busboy';

import { BodyError } from './errors.js';

/** One file part. */
export interface MultipartFile {
  /** The form field, e.g. `files[0]`. */
  field: string;
  filename: string;
  contentType: string | null;
  /** At most `limits.fileBytes` bytes: the rest of a larger file was read and dropped. */
  bytes: Buffer;
  /** The file was larger than `limits.fileBytes`. */
  truncated: boolean;
}

/** A parsed `multipart/form-data` body. */
export interface MultipartBody {
  fields: Map<string, string>;
  files: MultipartFile[];
}

/** Bounds of {@link readMultipart}. */
export interface MultipartLimits {
  /** Bytes kept per file; a larger one is marked `truncated`. */
  fileBytes: number;
  /** File parts; more is an error. */
  files: number;
  /** Bytes per field value; more is an error. */
  fieldBytes: number;
  /** Non-file fields; more is an error. */
  fields: number;
}

/**
 * Streams a `multipart/form-data` request through @fastify/busboy (the multipart parser Node's own HTTP client
 * builds on) with every part bounded: memory stays within `files × fileBytes + fields × fieldBytes` whatever
 * the client sends, and an oversized file is drained, not buffered, so the caller can answer 413 naming it.
 * Malformed bodies and broken limits reject with a BodyError.
 */
export function readMultipart(req: IncomingMessage, limits: MultipartLimits): Promise<MultipartBody> {
  return new Promise((resolve, reject) => {
    let parser: ReturnType<typeof Busboy>;
    try {
      parser = Busboy({
        headers: req.headers as { 'content-type': string },
        limits: {
          fileSize: limits.fileBytes,
          files: limits.files,
          fields: limits.fields,
          fieldSize: limits.fieldBytes,
          parts: limits.files + limits.fields,
        },
      });
    } catch {
      // Busboy throws only for a Content-Type it cannot use, in practice one without a boundary.
      reject(new BodyError('bad_multipart', 'the Content-Type header names no multipart boundary'));
      return;
    }
    const body: MultipartBody = { fields: new Map(), files: [] };
    let failure: BodyError | undefined;
    const fail = (error: BodyError): void => {
      failure ??= error;
    };
    parser.on('field', (name, value, _nameTruncated, valueTruncated) => {
      parts += 1;
      if (valueTruncated)
        fail(new BodyError('too_large', `field "${name}" is over ${limits.fieldBytes} bytes`));
      else body.fields.set(name, value);
    });
    let parts = 0;
    parser.on('file', (field, stream, filename, _encoding, mimeType) => {
      parts += 1;
      const chunks: Buffer[] = [];
      // A part cut off by the end of the body errors on its own stream; unheard, that error would be fatal.
      stream.on('error', () => {
        fail(new BodyError('bad_multipart', `the part "${field}" ends before its closing boundary`));
      });
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        body.files.push({
          field,
          filename,
          contentType: mimeType === '' ? null : mimeType,
          bytes: Buffer.concat(chunks),
          truncated: stream.truncated,
        });
      });
    });
    parser.on('filesLimit', () => fail(new BodyError('too_large', `more than ${limits.files} files`)));
    parser.on('fieldsLimit', () => fail(new BodyError('too_large', `more than ${limits.fields} fields`)));
    parser.on('partsLimit', () => fail(new BodyError('too_large', 'too many parts')));
    parser.on('error', () => {
      const error =
        failure ??
        new BodyError(
          'bad_multipart',
          parts === 0
            ? 'the body holds no part delimited by the boundary its Content-Type names'
            : 'the body ends before its closing boundary',
        );
      failure = error;
      // Busboy may not finish after an error; answer now (the rest of the body is drained by the router).
      reject(error);
    });
    parser.on('finish', () => {
      if (failure) reject(failure);
      else resolve(body);
    });
    req.on('aborted', () => {
      reject(new BodyError('malformed', 'the request body was cut off'));
    });
    req.pipe(parser);
  });
}
