import { FieldErrors, isRecord, optionalInteger } from './fieldErrors.js';

/** The guild feature that lets roles have gradient (and holographic) colours. */
export const ENHANCED_ROLE_COLORS = 'ENHANCED_ROLE_COLORS';

/**
 * A role's colours as checked: the primary (also the deprecated `color`), and the gradient's others (absent
 * when only `color` was given, which changes the primary colour alone).
 */
export interface RoleColors {
  color: number;
  secondaryColor?: number | null;
  tertiaryColor?: number | null;
}

/**
 * Reads a role body's `colors` (`{primary_color, secondary_color, tertiary_color}`), or `color` alone when
 * `colors` is absent; undefined when neither is given. A gradient (a non-null secondary or tertiary colour) is
 * a 50035 field error unless the guild has {@link ENHANCED_ROLE_COLORS}, and a tertiary colour needs a
 * secondary one, as the platform's holographic style has all three. `colors` wins over `color`, which is kept
 * equal to the primary colour either way (the document: `color` is an alias that still works).
 */
export function readRoleColors(
  errors: FieldErrors,
  body: Record<string, unknown>,
  enhanced: boolean,
): RoleColors | undefined {
  const solid = optionalInteger(errors, ['color'], body.color, 0, 0xffffff);
  const value = body.colors;
  if (value === undefined || value === null) {
    return solid === undefined ? undefined : { color: solid };
  }
  if (!isRecord(value)) {
    errors.add(['colors'], 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
    return undefined;
  }
  const primary = optionalInteger(errors, ['colors', 'primary_color'], value.primary_color, 0, 0xffffff);
  const secondary = optionalInteger(
    errors,
    ['colors', 'secondary_color'],
    value.secondary_color,
    0,
    0xffffff,
  );
  const tertiary = optionalInteger(errors, ['colors', 'tertiary_color'], value.tertiary_color, 0, 0xffffff);
  if (value.primary_color === undefined || value.primary_color === null) {
    errors.add(['colors', 'primary_color'], 'BASE_TYPE_REQUIRED', 'This field is required');
  }
  if ((secondary !== undefined || tertiary !== undefined) && !enhanced) {
    errors.add(
      ['colors', secondary === undefined ? 'tertiary_color' : 'secondary_color'],
      'ROLE_COLORS_ENHANCED_REQUIRED',
      `Gradient role colors need the guild feature ${ENHANCED_ROLE_COLORS}.`,
    );
  }
  if (tertiary !== undefined && secondary === undefined) {
    errors.add(
      ['colors', 'tertiary_color'],
      'ROLE_COLORS_TERTIARY_WITHOUT_SECONDARY',
      'Needs secondary_color.',
    );
  }
  return { color: primary ?? 0, secondaryColor: secondary ?? null, tertiaryColor: tertiary ?? null };
}
