/** `T` with its readonly fields writable: for an object its owner fills in before handing out copies. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };
