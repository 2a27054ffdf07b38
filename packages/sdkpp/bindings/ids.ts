/** A 64-bit id as the C++ SDK's `uint64_t`; strings and safe integers are accepted too. */
export type Uint64Like = bigint | string | number;

/** @internal Converts an id to the decimal string the core API uses; throws on a non-id. */
export function idToString(value: Uint64Like): string {
  if (typeof value === 'number' && !Number.isSafeInteger(value))
    throw new TypeError('id numbers must be safe integers; use a bigint or string');
  const text = typeof value === 'string' ? value : value.toString();
  if (!/^[0-9]{1,20}$/.test(text) || BigInt(text) > 0xffffffffffffffffn)
    throw new TypeError(`not a 64-bit id: ${text}`);
  return text;
}

/** @internal Converts an id string to bigint; empty or missing becomes 0n. */
export function idToBigInt(value: string | undefined): bigint {
  return value ? BigInt(value) : 0n;
}
