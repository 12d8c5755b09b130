/**
 * The project create/edit form.
 */
import { FormMessages, ValidationMessages } from '../messages.js';
import { resolveSlug } from '../slug.js';
import type { ProjectData, ProjectLocation } from '../types.js';
import { invalid, trimmed, valid } from './result.js';
import type { ValidationResult } from './result.js';

/** The form's fields as entered (strings from inputs; lat/lng may already be numbers). */
export interface ProjectFormInput {
  name: string;
  structure_id?: string | null;
  description?: string | null;
  slug?: string | null;
  address?: string | null;
  mapUrl?: string | null;
  lat?: string | number | null;
  lng?: string | number | null;
}

/**
 * The normalised project: `ProjectData` without timestamps and without reference_model_id (the
 * form never changes the reference, so an update leaves it alone). Strings are trimmed; the
 * location is always present, its empty fields null.
 */
export type ProjectFormValue = Omit<ProjectData, 'created_at' | 'last_updated' | 'reference_model_id' | 'location'> & {
  location: ProjectLocation & { address: string | null; mapUrl: string | null };
};

const DECIMAL_RE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A coordinate field: '' / null / undefined → null; a finite number or decimal text → the number.
 * @returns the value, or undefined when it is not numeric ('abc', '1,5', '0x10', NaN)
 */
export function parseCoordinate(value: string | number | null | undefined): number | null | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  const text = value.trim();
  if (text === '') return null;
  if (!DECIMAL_RE.test(text)) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/** Latitude range of a stored location, degrees. */
export const LATITUDE_RANGE = { min: -90, max: 90 } as const;
/** Longitude range of a stored location, degrees. */
export const LONGITUDE_RANGE = { min: -180, max: 180 } as const;

/**
 * The range rule of a stored location's coordinates (the same rule as the form's, for
 * the server, the import and the rules): each of `lat` and `lng` is absent, null, or a finite
 * number inside its range (latitude −90..90, longitude −180..180, degrees, bounds included).
 * @param location a document's `location` value, whatever its shape (null / non-object: no coordinates)
 * @returns null when the coordinates are acceptable, else the message of the first broken rule
 *   (`FormMessages.projectLatitudeInvalid` / `projectLongitudeInvalid` for a non-number,
 *   `projectLatitudeRange` / `projectLongitudeRange` for one out of range)
 */
export function locationCoordinatesProblem(location: unknown): string | null {
  if (location === null || typeof location !== 'object') return null;
  const { lat, lng } = location as { lat?: unknown; lng?: unknown };
  const check = (value: unknown, range: { min: number; max: number }, invalidText: string, rangeText: string): string | null => {
    if (value === undefined || value === null) return null;
    if (typeof value !== 'number' || !Number.isFinite(value)) return invalidText;
    return value < range.min || value > range.max ? rangeText : null;
  };
  return (
    check(lat, LATITUDE_RANGE, FormMessages.projectLatitudeInvalid, FormMessages.projectLatitudeRange) ??
    check(lng, LONGITUDE_RANGE, FormMessages.projectLongitudeInvalid, FormMessages.projectLongitudeRange)
  );
}

/** True for an absolute http(s) URL (other schemes, such as javascript:, are refused). */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * Validates and normalises the project form, in this order:
 * - name non-empty after trimming ('Project name cannot be empty');
 * - map URL, when given, an http(s) URL (`FormMessages.projectMapUrlInvalid`);
 * - latitude, then longitude, numeric or empty (`FormMessages.projectLatitudeInvalid` /
 *   `projectLongitudeInvalid`); empty means null;
 * - latitude within −90..90 ('Latitude must be between -90 and 90'), longitude within −180..180
 *   ('Longitude must be between -180 and 180'): a number out of range, e.g. 95 or -200,
 *   stretches the map.
 * The slug is normalised (lower case, spaces to hyphens, only a-z 0-9 -) or, when empty,
 * generated from the name.
 * @returns the normalised {@link ProjectFormValue}
 */
export function validateProjectForm(input: ProjectFormInput): ValidationResult<ProjectFormValue> {
  const name = trimmed(input.name);
  if (name === '') return invalid(ValidationMessages.projectNameEmpty);
  const mapUrl = trimmed(input.mapUrl);
  if (mapUrl !== '' && !isHttpUrl(mapUrl)) return invalid(FormMessages.projectMapUrlInvalid);
  const lat = parseCoordinate(input.lat);
  if (lat === undefined) return invalid(FormMessages.projectLatitudeInvalid);
  const lng = parseCoordinate(input.lng);
  if (lng === undefined) return invalid(FormMessages.projectLongitudeInvalid);
  const outOfRange = locationCoordinatesProblem({ lat, lng });
  if (outOfRange !== null) return invalid(outOfRange);
  const address = trimmed(input.address);
  return valid({
    name,
    structure_id: trimmed(input.structure_id),
    description: trimmed(input.description),
    slug: resolveSlug(input.slug, name),
    location: { lat, lng, address: address === '' ? null : address, mapUrl: mapUrl === '' ? null : mapUrl },
  });
}

/**
 * The form's initial fields for editing a stored project (the inverse of
 * {@link validateProjectForm}): missing values become '', coordinates become their text.
 */
export function projectFormInputOf(project: Partial<ProjectData> | null | undefined): Required<{
  [K in keyof ProjectFormInput]: string;
}> {
  const loc = project?.location ?? null;
  const coord = (v: number | null | undefined) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : '');
  return {
    name: project?.name ?? '',
    structure_id: project?.structure_id ?? '',
    description: project?.description ?? '',
    slug: project?.slug ?? '',
    address: loc?.address ?? '',
    mapUrl: loc?.mapUrl ?? '',
    lat: coord(loc?.lat),
    lng: coord(loc?.lng),
  };
}
