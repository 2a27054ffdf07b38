import {
  isRecord,
  optionalArray,
  optionalInteger,
  optionalString,
  type FieldErrors,
  type FieldPath,
} from './fieldErrors.js';
import { keepEmbedFields } from './knownFields.js';

/** Embeds per message. */
export const MAX_EMBEDS = 10;
/** Fields per embed (the document's limit). */
export const MAX_EMBED_FIELDS = 25;
/** Characters across every embed's title, description, field names and values, footer and author. */
export const MAX_EMBED_TOTAL = 6000;

/**
 * Checks a message's `embeds` (≤ 10, each with ≤ 25 fields and the platform's text limits, 6000 characters
 * in all) and returns them with only an embed's own fields (see keepEmbedFields), or records each problem at its path and returns undefined.
 */
export function checkEmbeds(errors: FieldErrors, value: unknown): unknown[] | undefined {
  const list = optionalArray(errors, ['embeds'], value, MAX_EMBEDS);
  if (!list) return undefined;
  let total = 0;
  let bad = false;
  list.forEach((embed, i) => {
    const at: FieldPath = ['embeds', i];
    if (!isRecord(embed)) {
      errors.add(at, 'MODEL_TYPE_CONVERT', 'Only dictionaries may be used in a ModelType');
      bad = true;
      return;
    }
    const text = (path: FieldPath, v: unknown, max: number): void => {
      const s = optionalString(errors, path, v, max);
      if (v !== undefined && v !== null && s === undefined) bad = true;
      total += s?.length ?? 0;
    };
    text([...at, 'title'], embed.title, 256);
    text([...at, 'description'], embed.description, 4096);
    if (optionalString(errors, [...at, 'url'], embed.url, 2048) === undefined && embed.url != null)
      bad = true;
    if (
      optionalInteger(errors, [...at, 'color'], embed.color, 0, 0xffffff) === undefined &&
      embed.color != null
    ) {
      bad = true;
    }
    for (const part of ['footer', 'author'] as const) {
      const value = embed[part];
      if (value === undefined || value === null) continue;
      if (!isRecord(value)) {
        errors.add([...at, part], 'MODEL_TYPE_CONVERT', 'Only dictionaries may be used in a ModelType');
        bad = true;
      } else if (part === 'footer') {
        text([...at, 'footer', 'text'], value.text, 2048);
      } else {
        text([...at, 'author', 'name'], value.name, 256);
      }
    }
    const fields = optionalArray(errors, [...at, 'fields'], embed.fields, MAX_EMBED_FIELDS);
    if (embed.fields !== undefined && embed.fields !== null && !fields) bad = true;
    fields?.forEach((field, j) => {
      const fieldAt: FieldPath = [...at, 'fields', j];
      if (!isRecord(field)) {
        errors.add(fieldAt, 'MODEL_TYPE_CONVERT', 'Only dictionaries may be used in a ModelType');
        bad = true;
        return;
      }
      for (const [key, max] of [
        ['name', 256],
        ['value', 1024],
      ] as const) {
        const s = optionalString(errors, [...fieldAt, key], field[key], max, 1);
        if (s === undefined) {
          if (field[key] === undefined || field[key] === null) {
            errors.add([...fieldAt, key], 'BASE_TYPE_REQUIRED', 'This field is required');
          }
          bad = true;
        }
        total += s?.length ?? 0;
      }
    });
  });
  if (total > MAX_EMBED_TOTAL) {
    errors.add(
      ['embeds'],
      'MAX_EMBED_SIZE_EXCEEDED',
      `Embed size exceeds maximum size of ${MAX_EMBED_TOTAL}`,
    );
    bad = true;
  }
  return bad ? undefined : keepEmbedFields(list);
}
