import { AdditionalContentType, type AdditionalContent as CoreAdditionalContent } from '../src/index.js';

/**
 * What a message holds besides text, as the C++ SDK's `AdditionalContent` struct: its kind, a title (a poll's
 * question, a thread's name) and how many pieces. `MessageHandle.AdditionalContent()` returns one.
 */
export class AdditionalContent {
  #type: AdditionalContentType;
  #title: string | undefined;
  #count: number;

  /** An empty value (`Other`, no title, count 0), or (from a message) a copy of the SDK's summary. */
  constructor(core?: CoreAdditionalContent) {
    this.#type = core?.type ?? AdditionalContentType.Other;
    this.#title = core?.title ?? undefined;
    this.#count = core?.count ?? 0;
  }
  /** The name of a kind, e.g. `"Poll"` (the C++ `AdditionalContent::TypeToString`). */
  static TypeToString(type: AdditionalContentType): string {
    return AdditionalContentType[type] ?? '';
  }
  /** True when every field equals `rhs`'s. */
  Equals(rhs: AdditionalContent): boolean {
    return this.#type === rhs.Type() && this.#title === rhs.Title() && this.#count === rhs.Count();
  }
  /** The kind of content. */
  Type(): AdditionalContentType {
    return this.#type;
  }
  /** Sets the kind. */
  SetType(value: AdditionalContentType): void {
    this.#type = value;
  }
  /** For a poll, its question; for a thread, its name; otherwise undefined. */
  Title(): string | undefined {
    return this.#title;
  }
  /** Sets the title; undefined clears it. */
  SetTitle(value: string | undefined): void {
    this.#title = value;
  }
  /** How many pieces (0–255), for "2 additional images". */
  Count(): number {
    return this.#count;
  }
  /** Sets the count (an integer 0–255, as the C++ `uint8_t`; other values are clamped and truncated). */
  SetCount(value: number): void {
    this.#count = Number.isFinite(value) ? Math.min(255, Math.max(0, Math.trunc(value))) : 0;
  }
}
