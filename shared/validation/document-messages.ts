/**
 * The messages of the stored-document rules that no form has: unknown fields, a field of the
 * wrong type named by its path, timestamps, and the key and field rules of alignments, users,
 * admins entries and models. The schemas (`document-schemas.ts`) and the check that runs them
 * (`documents.ts`) both report with them.
 */

/** Messages of the stored-document rules that no form has. */
export const DocumentMessages = {
  /**
   * Fields a collection's documents do not have.
   * @param what the document in words ('a finding')
   * @param keys the unknown keys, as found
   */
  unknownFields: (what: string, keys: readonly string[]): string =>
    `Unknown field${keys.length === 1 ? '' : 's'} in ${what}: ${keys.map((k) => JSON.stringify(k)).join(', ')}`,
  /**
   * A field of the wrong type or form.
   * @param what the document in words
   * @param path the field's dotted path ('files.images.2')
   */
  fieldInvalid: (what: string, path: string): string => `Invalid ${path} in ${what}`,
  /**
   * A timestamp field that is not an ISO 8601 date-time.
   * @param path the field's dotted path
   */
  timestampInvalid: (path: string): string => `${path} must be an ISO 8601 date-time such as 2026-11-22T10:00:00.000Z, or null`,
  alignmentKey: 'An alignment is stored at {referenceModelId}__{modelId}, of two different models',
  alignmentPairs:
    "A 'same-frame' or 'icp' alignment has no point pairs and a '3-point' alignment exactly 3, each a model and a reference point",
  alignmentPrevious:
    "An alignment's previous is for an 'icp' alignment only: null, or the 'same-frame' or '3-point' alignment it replaced (method, matrix, pairs, rmsError)",
  alignmentError: "An alignment's rmsError is a finite number of 0 or more",
  userKey: 'A user record is stored at its uid',
  adminKey: 'An admins entry is stored at its email address (lower case)',
  modelUuid: "A model's uuid is a document id (1 to 1,500 characters, no '/')",
  captureDateInvalid: 'Capture date must be a date (YYYY-MM-DD) or an ISO 8601 date-time, or null',
  counterInvalid: "A model's annotationsCount and annotationsSeq are whole numbers of 0 or more",
} as const;
