/** Copies the keys whose value is defined, so optional fields stay absent rather than `undefined`. */
export function defined<T extends object>(value: { [K in keyof T]: T[K] | undefined }): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
