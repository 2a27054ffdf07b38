import { z } from 'zod';

import type { AdminHook } from './hook.js';

/** The part of JSON Schema that z.toJSONSchema writes for the hooks' arguments. */
interface JsonSchema {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  description?: string;
}

/** A hook's arguments as JSON Schema (draft 2020-12), for tools: `sdkpp emulator call --list --json`. */
export function argsJsonSchema(hook: AdminHook): Record<string, unknown> {
  return z.toJSONSchema(hook.args, { io: 'input' });
}

/** An array's item type, in parentheses when it is a union (`(string | {user: string})[]`). */
function itemText(schema: JsonSchema): string {
  const union = schema.anyOf !== undefined || (schema.enum?.length ?? 0) > 1 || Array.isArray(schema.type);
  return union ? `(${typeText(schema)})` : typeText(schema);
}

/** One schema as a short TypeScript-like type: `{name: string, periodMs?: integer}`, `"a"|"b"`, `string[]`. */
function typeText(schema: JsonSchema): string {
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join('|');
  if (schema.anyOf) return schema.anyOf.map(typeText).join(' | ');
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  if (schema.type === 'array') return `${itemText(schema.items ?? {})}[]`;
  if (schema.type === 'object') {
    const properties = Object.entries(schema.properties ?? {});
    if (properties.length === 0 && typeof schema.additionalProperties === 'object') {
      return `{[key: string]: ${typeText(schema.additionalProperties)}}`;
    }
    const required = new Set(schema.required ?? []);
    const fields = properties.map(
      ([name, value]) => `${name}${required.has(name) ? '' : '?'}: ${typeText(value)}`,
    );
    return `{${fields.join(', ')}}`;
  }
  return schema.type ?? 'JSON';
}

/** A hook's arguments in one line, e.g. `{name: string, type: "durable"|"consumable"|"subscription"}`. */
export function argsText(hook: AdminHook): string {
  return typeText(argsJsonSchema(hook));
}
