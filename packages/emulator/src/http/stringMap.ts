import { invalidFormBody } from '../platform/errors.js';

/**
 * Reads a `{string: string}` object such as message metadata, enforcing a key count and a total size
 * (keys and values together, in characters); anything else is a 50035 naming `field`.
 */
export function readStringMap(
  value: unknown,
  field: string,
  limits: { maxKeys: number; maxChars: number },
): Record<string, string> {
  const fail = (message: string): never => {
    throw invalidFormBody({ [field]: { code: 'DICT_TYPE_CONVERT', message } });
  };
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) return fail('Must be an object of strings.');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > limits.maxKeys) return fail(`Must have at most ${limits.maxKeys} keys.`);
  let chars = 0;
  const map: Record<string, string> = {};
  for (const [key, item] of entries) {
    if (typeof item !== 'string') return fail('Values must be strings.');
    chars += key.length + item.length;
    map[key] = item;
  }
  if (chars > limits.maxChars)
    return fail(`Keys and values must total at most ${limits.maxChars} characters.`);
  return map;
}
