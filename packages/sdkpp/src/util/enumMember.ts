/**
 * The member of a numeric enum equal to `value`, or undefined: how wire numbers become enum values without
 * trusting them.
 */
export function enumMember<E extends number>(
  enumObject: Readonly<Record<string, string | E>>,
  value: unknown,
): E | undefined {
  return Object.values(enumObject).find(
    (member): member is E => typeof member === 'number' && member === value,
  );
}
