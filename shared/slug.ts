/**
 * URL slugs of the project form: lower-cased, spaces become hyphens, only a-z, 0-9 and
 * '-' remain; generated from the project name when empty.
 */

/**
 * Turns text into a slug: accents are dropped ('é' → 'e'), the text is lower-cased, runs of
 * whitespace become one hyphen, every character other than a-z, 0-9 and '-' is removed, repeated
 * hyphens collapse to one and hyphens at either end are trimmed.
 * Meant for a submitted value (it trims a trailing hyphen, so do not apply it on each keystroke).
 * @example slugify('  Tower 12 – North Face ') === 'tower-12-north-face'
 * @returns the slug; '' when nothing usable remains
 */
export function slugify(text: string | null | undefined): string {
  return (text ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim()
    .replace(/\s+/g, '-')
    .replace(/[^a-z0-9-]/g, '')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * The slug to store: the given slug normalised with {@link slugify}, or, when that is empty,
 * the slug generated from the project name.
 */
export function resolveSlug(slug: string | null | undefined, name: string | null | undefined): string {
  const given = slugify(slug);
  return given !== '' ? given : slugify(name);
}

/** True when `slug` is already in normal form: a-z, 0-9 and single inner hyphens, non-empty. */
export function isValidSlug(slug: string): boolean {
  return /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug);
}
