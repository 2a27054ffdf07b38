import { ComponentType, MAX_FILE_UPLOADS } from '../bodies/componentBodies.js';
import { isRecord } from '../bodies/fieldErrors.js';
import type { EmulatorUploadFile } from '../types.js';
import { checkUpload, keepUpload, type UploadTarget } from './uploads.js';

/** What {@link ModalAnswers} needs: where uploads go. */
export type ModalAnswerDeps = UploadTarget;

/** The `value`s of a component's `options`. */
function optionValues(input: Record<string, unknown>): unknown[] {
  return (Array.isArray(input.options) ? input.options : []).filter(isRecord).map((o) => o.value);
}

function bound(input: Record<string, unknown>, key: string, fallback: number): number {
  const value = input[key];
  return typeof value === 'number' ? value : fallback;
}

/**
 * A modal's answers as a user gives them (values by custom id, files for File Upload components), checked
 * against each input as a client would (required fields, lengths, counts, options, file types and sizes) and
 * turned into the modal submit interaction's components; a RangeError names what does not fit. Uploaded files
 * are kept and served at their attachment `url`, and listed in `resolved.attachments`.
 */
export class ModalAnswers {
  /** The uploads, by attachment id, as `resolved.attachments` carries them. */
  readonly attachments: Record<string, unknown> = {};
  readonly #deps: ModalAnswerDeps;
  readonly #values: Map<string, string | string[] | boolean>;
  readonly #files: Map<string, readonly EmulatorUploadFile[]>;

  constructor(
    deps: ModalAnswerDeps,
    values: Record<string, string | string[] | boolean>,
    files: Record<string, readonly EmulatorUploadFile[]> = {},
  ) {
    this.#deps = deps;
    this.#values = new Map(Object.entries(values));
    this.#files = new Map(Object.entries(files));
  }

  /** The custom ids given that no input of the modal had. */
  leftover(): string[] {
    return [...new Set([...this.#values.keys(), ...this.#files.keys()])];
  }

  /** One input's submitted component. */
  answer(input: Record<string, unknown>): Record<string, unknown> {
    const id = String(input.custom_id);
    const value = this.#values.get(id);
    const files = this.#files.get(id);
    this.#values.delete(id);
    this.#files.delete(id);
    const type = Number(input.type);
    const base = { type, id: input.id, custom_id: id };
    // The document: `required` allows an optional choice; it defaults to true (String Select's too, in modals).
    const required = input.required !== false;
    if (type === ComponentType.FILE_UPLOAD) {
      if (value !== undefined) throw new RangeError(`"${id}" is a file upload: give it files, not values`);
      return { ...base, values: this.#upload(input, id, files ?? [], required) };
    }
    if (files !== undefined) throw new RangeError(`"${id}" is not a file upload`);
    if (type === ComponentType.TEXT_INPUT) {
      const text = typeof value === 'string' ? value : '';
      if (required && text.length === 0) throw new RangeError(`"${id}" is required`);
      const min = bound(input, 'min_length', 0);
      const max = bound(input, 'max_length', 4000);
      if (text.length > 0 && (text.length < min || text.length > max))
        throw new RangeError(`"${id}" must be ${min}–${max} characters`);
      return { ...base, value: text };
    }
    if (type === ComponentType.CHECKBOX) {
      if (value !== undefined && typeof value !== 'boolean')
        throw new RangeError(`"${id}" is a checkbox: true or false`);
      return { ...base, value: value ?? input.default === true };
    }
    if (type === ComponentType.RADIO_GROUP) {
      if (value !== undefined && typeof value !== 'string')
        throw new RangeError(`"${id}" is a radio group: one value`);
      if (value === undefined && required) throw new RangeError(`"${id}" is required`);
      if (value !== undefined && !optionValues(input).includes(value))
        throw new RangeError(`"${value}" is not an option of "${id}"`);
      return { ...base, value: value ?? null };
    }
    const values = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
    if (typeof value === 'boolean') throw new RangeError(`"${id}" takes values, not a boolean`);
    if (values.length === 0) {
      if (required) throw new RangeError(`"${id}" is required`);
      return { ...base, values };
    }
    const checkboxes = type === ComponentType.CHECKBOX_GROUP;
    const min = bound(input, 'min_values', 1);
    const max = bound(input, 'max_values', checkboxes ? optionValues(input).length : 1);
    if (values.length < min || values.length > max)
      throw new RangeError(`"${id}": pick ${min}–${max} values`);
    if (checkboxes || type === ComponentType.STRING_SELECT) {
      const allowed = optionValues(input);
      const bad = values.filter((v) => !allowed.includes(v));
      if (bad.length > 0) throw new RangeError(`not options of "${id}": ${bad.join(', ')}`);
    }
    return { ...base, values };
  }

  /** Checks and keeps a File Upload's files; answers their attachment ids. */
  #upload(
    input: Record<string, unknown>,
    id: string,
    files: readonly EmulatorUploadFile[],
    required: boolean,
  ): string[] {
    if (files.length === 0) {
      if (required) throw new RangeError(`"${id}" is required: upload a file`);
      return [];
    }
    const min = bound(input, 'min_values', 1);
    const max = Math.min(bound(input, 'max_values', 1), MAX_FILE_UPLOADS);
    if (files.length < min || files.length > max) throw new RangeError(`"${id}": upload ${min}–${max} files`);
    const fileTypes = Array.isArray(input.file_types) ? input.file_types : undefined;
    const checked = files.map((file) => checkUpload(file, id, fileTypes));
    // Kept only once every file passed, so a refused submission leaves nothing behind.
    return checked.map((upload) => {
      const attachment = keepUpload(this.#deps, upload);
      const attachmentId = String(attachment.id);
      this.attachments[attachmentId] = attachment;
      return attachmentId;
    });
  }
}
