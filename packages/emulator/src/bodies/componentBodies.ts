import {
  isRecord,
  optionalArray,
  optionalBoolean,
  optionalInteger,
  optionalString,
  type FieldErrors,
  type FieldPath,
} from './fieldErrors.js';
import { checkFileTypes } from './fileTypes.js';
import { keepComponentFields } from './knownFields.js';

/** Component types, the platform's numbers. */
export const ComponentType = {
  ACTION_ROW: 1,
  BUTTON: 2,
  STRING_SELECT: 3,
  TEXT_INPUT: 4,
  USER_SELECT: 5,
  ROLE_SELECT: 6,
  MENTIONABLE_SELECT: 7,
  CHANNEL_SELECT: 8,
  SECTION: 9,
  TEXT_DISPLAY: 10,
  THUMBNAIL: 11,
  MEDIA_GALLERY: 12,
  FILE: 13,
  SEPARATOR: 14,
  CONTAINER: 17,
  LABEL: 18,
  FILE_UPLOAD: 19,
  RADIO_GROUP: 21,
  CHECKBOX_GROUP: 22,
  CHECKBOX: 23,
} as const;

/** Message flag IS_COMPONENTS_V2. */
export const IS_COMPONENTS_V2 = 1 << 15;

/** Legacy messages: action rows per message. */
export const MAX_ACTION_ROWS = 5;
/** Components V2 messages: components in total, nested ones included (no separate top-level limit). */
export const MAX_V2_COMPONENTS = 40;
/** Modals: top-level components. */
export const MAX_MODAL_COMPONENTS = 5;
/** File Upload: the bounds of `min_values` / `max_values`. */
export const MAX_FILE_UPLOADS = 10;

/** Where components are being checked. */
export type ComponentContext = 'message' | 'message-v2' | 'modal';

const SELECTS: ReadonlySet<number> = new Set([
  ComponentType.STRING_SELECT,
  ComponentType.USER_SELECT,
  ComponentType.ROLE_SELECT,
  ComponentType.MENTIONABLE_SELECT,
  ComponentType.CHANNEL_SELECT,
]);
const V2_TOP: ReadonlySet<number> = new Set([
  ComponentType.ACTION_ROW,
  ComponentType.SECTION,
  ComponentType.TEXT_DISPLAY,
  ComponentType.MEDIA_GALLERY,
  ComponentType.FILE,
  ComponentType.SEPARATOR,
  ComponentType.CONTAINER,
]);
/** What a modal's Label may hold. */
const LABELLED: ReadonlySet<number> = new Set([
  ComponentType.TEXT_INPUT,
  ...SELECTS,
  ComponentType.FILE_UPLOAD,
  ComponentType.RADIO_GROUP,
  ComponentType.CHECKBOX_GROUP,
  ComponentType.CHECKBOX,
]);

/**
 * Checks `components` for a legacy message (≤ 5 action rows of ≤ 5 buttons or one select), a Components V2
 * message (40 in all, nesting included) or a modal (≤ 5 Labels and Text Displays, the modal-only inputs
 * inside a Label, no `disabled` on a select, File Upload counts 0–10). Each problem is recorded at its path
 * (`components.0.components.1.custom_id`); returns the components when all is well, with only each type's
 * own fields (see keepComponentFields).
 */
export function checkComponents(
  errors: FieldErrors,
  value: unknown,
  context: ComponentContext,
  path: FieldPath = ['components'],
  skuAvailable: (skuId: string) => boolean = () => true,
): unknown[] | undefined {
  const max = context === 'message' ? MAX_ACTION_ROWS : context === 'modal' ? MAX_MODAL_COMPONENTS : Infinity;
  const list = optionalArray(errors, path, value, max, context === 'modal' ? 1 : 0);
  if (!list) return value === undefined || value === null ? [] : undefined;
  const checker = new Checker(errors, context, skuAvailable);
  list.forEach((c, i) => {
    checker.top(c, [...path, i]);
  });
  if (context === 'message-v2' && checker.count > MAX_V2_COMPONENTS) {
    errors.add(path, 'COMPONENT_LAYOUT_WIDTH_EXCEEDED', `Must be ${MAX_V2_COMPONENTS} or fewer in total.`);
  }
  return errors.any ? undefined : keepComponentFields(list);
}

class Checker {
  count = 0;
  readonly #errors: FieldErrors;
  readonly #context: ComponentContext;
  readonly #customIds = new Set<string>();
  readonly #skuAvailable: (skuId: string) => boolean;

  constructor(errors: FieldErrors, context: ComponentContext, skuAvailable: (skuId: string) => boolean) {
    this.#errors = errors;
    this.#context = context;
    this.#skuAvailable = skuAvailable;
  }

  top(c: unknown, at: FieldPath): void {
    const type = this.#type(c, at);
    if (type === undefined || !isRecord(c)) return;
    if (this.#context === 'message') {
      if (type !== ComponentType.ACTION_ROW) this.#wrong(at, 'only action rows may be top-level');
      else this.#actionRow(c, at);
    } else if (this.#context === 'message-v2') {
      if (!V2_TOP.has(type)) this.#wrong(at, `type ${type} may not be top-level in a message`);
      else this.#v2(c, type, at);
    } else if (type === ComponentType.LABEL) {
      this.#label(c, at);
    } else if (type === ComponentType.TEXT_DISPLAY) {
      this.#textDisplay(c, at);
    } else if (type === ComponentType.ACTION_ROW) {
      // Deprecated in modals, still accepted: one Text Input, which then carries its own label.
      const inner = optionalArray(this.#errors, [...at, 'components'], c.components, 1, 1);
      const input: unknown = inner?.[0];
      if (inner && this.#type(input, [...at, 'components', 0]) !== ComponentType.TEXT_INPUT) {
        this.#wrong([...at, 'components', 0], 'an action row in a modal holds one text input');
      } else if (isRecord(input)) {
        this.#textInput(input, [...at, 'components', 0], false);
      }
    } else {
      this.#wrong(at, `type ${type} may not be top-level in a modal (use a Label)`);
    }
  }

  #type(c: unknown, at: FieldPath): number | undefined {
    this.count += 1;
    if (!isRecord(c)) {
      this.#errors.add(at, 'MODEL_TYPE_CONVERT', 'Only dictionaries may be used in a ModelType');
      return undefined;
    }
    if (typeof c.type !== 'number' || !Object.values<number>(ComponentType).includes(c.type)) {
      this.#errors.add([...at, 'type'], 'BASE_TYPE_CHOICES', 'Value must be a known component type.');
      return undefined;
    }
    return c.type;
  }

  #wrong(at: FieldPath, message: string): void {
    this.#errors.add(
      at,
      'UNION_TYPE_CHOICES',
      `Value of field "type" must be one of the allowed types: ${message}.`,
    );
  }

  #customId(c: Record<string, unknown>, at: FieldPath, required: boolean): void {
    const id = optionalString(this.#errors, [...at, 'custom_id'], c.custom_id, 100, 1);
    if (id === undefined) {
      if (required && (c.custom_id === undefined || c.custom_id === null)) {
        this.#errors.add([...at, 'custom_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
      }
      return;
    }
    if (this.#customIds.has(id)) {
      this.#errors.add(
        [...at, 'custom_id'],
        'COMPONENT_CUSTOM_ID_DUPLICATED',
        'Component custom id cannot be duplicated',
      );
    }
    this.#customIds.add(id);
  }

  #actionRow(c: Record<string, unknown>, at: FieldPath): void {
    const children = optionalArray(this.#errors, [...at, 'components'], c.components, 5, 1);
    if (!children) {
      if (c.components === undefined)
        this.#errors.add([...at, 'components'], 'BASE_TYPE_REQUIRED', 'This field is required');
      return;
    }
    const types = children.map((child, i) => this.#type(child, [...at, 'components', i]));
    const selects = types.filter((t) => t !== undefined && SELECTS.has(t)).length;
    if (selects > 0 && children.length > 1) {
      this.#errors.add(
        [...at, 'components'],
        'COMPONENT_LAYOUT_WIDTH_EXCEEDED',
        'A select menu takes up a whole action row.',
      );
    }
    children.forEach((child, i) => {
      const t = types[i];
      const childAt = [...at, 'components', i];
      if (t === undefined || !isRecord(child)) return;
      if (t === ComponentType.BUTTON) this.#button(child, childAt);
      else if (SELECTS.has(t)) this.#select(child, t, childAt);
      else this.#wrong(childAt, 'an action row in a message holds buttons or one select');
    });
  }

  #button(c: Record<string, unknown>, at: FieldPath): void {
    const style = optionalInteger(this.#errors, [...at, 'style'], c.style, 1, 6);
    if (style === undefined) {
      if (c.style === undefined)
        this.#errors.add([...at, 'style'], 'BASE_TYPE_REQUIRED', 'This field is required');
      return;
    }
    optionalString(this.#errors, [...at, 'label'], c.label, 80);
    optionalBoolean(this.#errors, [...at, 'disabled'], c.disabled);
    if (style === 5) {
      if (typeof c.url !== 'string')
        this.#errors.add([...at, 'url'], 'BASE_TYPE_REQUIRED', 'A link button needs a url');
      if (c.custom_id !== undefined)
        this.#errors.add(
          [...at, 'custom_id'],
          'BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED',
          'A link button cannot have a custom id',
        );
    } else if (style === 6) {
      // The premium button replaces the PREMIUM_REQUIRED callback: an SKU and nothing else that speaks.
      if (typeof c.sku_id !== 'string')
        this.#errors.add([...at, 'sku_id'], 'BASE_TYPE_REQUIRED', 'A premium button needs a sku_id');
      else if (!this.#skuAvailable(c.sku_id)) {
        // The document: the premium button's sku_id points to an active SKU.
        this.#errors.add(
          [...at, 'sku_id'],
          'BUTTON_COMPONENT_SKU_ID_INVALID',
          `SKU ${c.sku_id} is not an available SKU of the application`,
        );
      }
      for (const key of ['custom_id', 'label', 'url', 'emoji']) {
        if (c[key] !== undefined)
          this.#errors.add(
            [...at, key],
            'BUTTON_COMPONENT_PREMIUM_FIELD_NOT_ALLOWED',
            `A premium button cannot have ${key}`,
          );
      }
    } else {
      this.#customId(c, at, true);
      if (c.url !== undefined)
        this.#errors.add([...at, 'url'], 'BUTTON_COMPONENT_URL_NOT_ALLOWED', 'Only link buttons have a url');
    }
  }

  #select(c: Record<string, unknown>, type: number, at: FieldPath): void {
    this.#customId(c, at, true);
    optionalString(this.#errors, [...at, 'placeholder'], c.placeholder, 150);
    const min = optionalInteger(this.#errors, [...at, 'min_values'], c.min_values, 0, 25);
    const max = optionalInteger(this.#errors, [...at, 'max_values'], c.max_values, 1, 25);
    if (min !== undefined && max !== undefined && min > max) {
      this.#errors.add(
        [...at, 'min_values'],
        'SELECT_COMPONENT_MIN_VALUES_TOO_LARGE',
        'min_values must be ≤ max_values',
      );
    }
    if (this.#context === 'modal') {
      // The document's rule: `disabled` on a select is not allowed in modals.
      if (c.disabled !== undefined) {
        this.#errors.add(
          [...at, 'disabled'],
          'COMPONENT_FIELD_NOT_ALLOWED_IN_MODAL',
          'disabled is not allowed on a select in a modal',
        );
      }
      optionalBoolean(this.#errors, [...at, 'required'], c.required);
    } else {
      optionalBoolean(this.#errors, [...at, 'disabled'], c.disabled);
    }
    if (type === ComponentType.STRING_SELECT) {
      const options = optionalArray(this.#errors, [...at, 'options'], c.options, 25, 1);
      if (!options && c.options === undefined)
        this.#errors.add([...at, 'options'], 'BASE_TYPE_REQUIRED', 'This field is required');
      options?.forEach((o, i) => {
        const oAt = [...at, 'options', i];
        if (!isRecord(o)) {
          this.#errors.add(oAt, 'MODEL_TYPE_CONVERT', 'Only dictionaries may be used in a ModelType');
          return;
        }
        for (const key of ['label', 'value'] as const) {
          if (
            optionalString(this.#errors, [...oAt, key], o[key], 100, 1) === undefined &&
            o[key] === undefined
          ) {
            this.#errors.add([...oAt, key], 'BASE_TYPE_REQUIRED', 'This field is required');
          }
        }
        optionalString(this.#errors, [...oAt, 'description'], o.description, 100);
      });
    }
  }

  #textDisplay(c: Record<string, unknown>, at: FieldPath): void {
    if (
      optionalString(this.#errors, [...at, 'content'], c.content, 4000, 1) === undefined &&
      c.content === undefined
    ) {
      this.#errors.add([...at, 'content'], 'BASE_TYPE_REQUIRED', 'This field is required');
    }
  }

  #v2(c: Record<string, unknown>, type: number, at: FieldPath): void {
    switch (type) {
      case ComponentType.ACTION_ROW:
        this.#actionRow(c, at);
        return;
      case ComponentType.TEXT_DISPLAY:
        this.#textDisplay(c, at);
        return;
      case ComponentType.SECTION: {
        const texts = optionalArray(this.#errors, [...at, 'components'], c.components, 3, 1);
        texts?.forEach((t, i) => {
          const tAt = [...at, 'components', i];
          if (this.#type(t, tAt) !== ComponentType.TEXT_DISPLAY)
            this.#wrong(tAt, 'a section holds text displays');
          else if (isRecord(t)) this.#textDisplay(t, tAt);
        });
        const accessory = this.#type(c.accessory, [...at, 'accessory']);
        if (accessory === ComponentType.BUTTON && isRecord(c.accessory))
          this.#button(c.accessory, [...at, 'accessory']);
        else if (accessory === ComponentType.THUMBNAIL && isRecord(c.accessory))
          this.#media(c.accessory.media, [...at, 'accessory', 'media'], false);
        else if (accessory !== undefined) {
          this.#wrong([...at, 'accessory'], "a section's accessory is a thumbnail or a button");
        }
        return;
      }
      case ComponentType.MEDIA_GALLERY:
        optionalArray(this.#errors, [...at, 'items'], c.items, 10, 1)?.forEach((item, i) => {
          this.#media(isRecord(item) ? item.media : undefined, [...at, 'items', i, 'media'], false);
        });
        if (c.items === undefined)
          this.#errors.add([...at, 'items'], 'BASE_TYPE_REQUIRED', 'This field is required');
        return;
      case ComponentType.FILE:
        // A File component shows an uploaded attachment only: its url is an attachment:// reference.
        this.#media(c.file, [...at, 'file'], true);
        return;
      case ComponentType.CONTAINER: {
        optionalInteger(this.#errors, [...at, 'accent_color'], c.accent_color, 0, 0xffffff);
        const children = optionalArray(this.#errors, [...at, 'components'], c.components, Infinity, 1);
        children?.forEach((child, i) => {
          const cAt = [...at, 'components', i];
          const t = this.#type(child, cAt);
          if (t === undefined || !isRecord(child)) return;
          if (t === ComponentType.CONTAINER || !V2_TOP.has(t))
            this.#wrong(cAt, `type ${t} may not be in a container`);
          else this.#v2(child, t, cAt);
        });
        return;
      }
      default:
        return; // A Separator carries nothing the emulator checks beyond its type.
    }
  }

  /**
   * An unfurled media item `{url}` of a Thumbnail, Media Gallery item or File: an http(s) URL or an
   * `attachment://<filename>` reference to a file of the message (only the latter for a File).
   */
  #media(media: unknown, at: FieldPath, attachmentOnly: boolean): void {
    const url = isRecord(media) ? media.url : undefined;
    if (typeof url !== 'string' || url.length === 0 || url.length > 2048) {
      this.#errors.add([...at, 'url'], 'BASE_TYPE_REQUIRED', 'This field is required');
    } else if (!/^attachment:\/\/[^/]+$/.test(url) && (attachmentOnly || !/^https?:\/\//.test(url))) {
      this.#errors.add(
        [...at, 'url'],
        'UNFURLED_MEDIA_ITEM_URL_INVALID',
        attachmentOnly
          ? 'A file component takes an attachment:// reference.'
          : 'Must be an http(s) or attachment:// URL.',
      );
    }
  }

  #label(c: Record<string, unknown>, at: FieldPath): void {
    if (
      optionalString(this.#errors, [...at, 'label'], c.label, 45, 1) === undefined &&
      c.label === undefined
    ) {
      this.#errors.add([...at, 'label'], 'BASE_TYPE_REQUIRED', 'This field is required');
    }
    optionalString(this.#errors, [...at, 'description'], c.description, 100);
    const inner = c.component;
    const innerAt = [...at, 'component'];
    const type = this.#type(inner, innerAt);
    if (type === undefined || !isRecord(inner)) return;
    if (!LABELLED.has(type)) {
      this.#wrong(
        innerAt,
        'a label holds a text input, a select, a file upload, a radio group or checkboxes',
      );
    } else if (type === ComponentType.TEXT_INPUT) {
      this.#textInput(inner, innerAt, true);
    } else if (SELECTS.has(type)) {
      this.#select(inner, type, innerAt);
    } else if (type === ComponentType.FILE_UPLOAD) {
      this.#customId(inner, innerAt, true);
      const min = optionalInteger(
        this.#errors,
        [...innerAt, 'min_values'],
        inner.min_values,
        0,
        MAX_FILE_UPLOADS,
      );
      const max = optionalInteger(
        this.#errors,
        [...innerAt, 'max_values'],
        inner.max_values,
        1,
        MAX_FILE_UPLOADS,
      );
      if (min !== undefined && max !== undefined && min > max) {
        this.#errors.add(
          [...innerAt, 'min_values'],
          'SELECT_COMPONENT_MIN_VALUES_TOO_LARGE',
          'min_values must be ≤ max_values',
        );
      }
      optionalBoolean(this.#errors, [...innerAt, 'required'], inner.required);
      checkFileTypes(this.#errors, [...innerAt, 'file_types'], inner.file_types);
    } else if (type === ComponentType.CHECKBOX) {
      this.#customId(inner, innerAt, true);
      optionalBoolean(this.#errors, [...innerAt, 'default'], inner.default);
    } else {
      this.#customId(inner, innerAt, true);
      const options = optionalArray(this.#errors, [...innerAt, 'options'], inner.options, 10, 1);
      if (!options && inner.options === undefined)
        this.#errors.add([...innerAt, 'options'], 'BASE_TYPE_REQUIRED', 'This field is required');
      optionalBoolean(this.#errors, [...innerAt, 'required'], inner.required);
      if (type === ComponentType.CHECKBOX_GROUP) {
        optionalInteger(this.#errors, [...innerAt, 'min_values'], inner.min_values, 0, 10);
        optionalInteger(this.#errors, [...innerAt, 'max_values'], inner.max_values, 1, 10);
      }
    }
  }

  #textInput(c: Record<string, unknown>, at: FieldPath, inLabel: boolean): void {
    this.#customId(c, at, true);
    optionalInteger(this.#errors, [...at, 'style'], c.style, 1, 2);
    if (inLabel && c.label !== undefined) {
      // The document's rule: inside a Label the Label's own `label` is used, and the input must not carry one.
      this.#errors.add(
        [...at, 'label'],
        'COMPONENT_FIELD_NOT_ALLOWED_IN_LABEL',
        'A text input inside a label cannot have its own label',
      );
    } else if (
      !inLabel &&
      optionalString(this.#errors, [...at, 'label'], c.label, 45, 1) === undefined &&
      c.label === undefined
    ) {
      this.#errors.add([...at, 'label'], 'BASE_TYPE_REQUIRED', 'This field is required');
    }
    optionalInteger(this.#errors, [...at, 'min_length'], c.min_length, 0, 4000);
    optionalInteger(this.#errors, [...at, 'max_length'], c.max_length, 1, 4000);
    optionalString(this.#errors, [...at, 'value'], c.value, 4000);
    optionalString(this.#errors, [...at, 'placeholder'], c.placeholder, 100);
  }
}
