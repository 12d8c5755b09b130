/**
 * Random document ids and user ids in Firestore's alphabet, drawn from the platform's
 * cryptographic random source (`globalThis.crypto.getRandomValues`: browsers and Node ≥ 19).
 */

/** The characters of an id: A–Z, a–z, 0–9 (62). */
export const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A random id of letters and digits, without modulo bias (random bytes of 248 and above, which
 * would favour the first characters, are drawn again). Firestore's automatic document ids are 20
 * such characters and Firebase Auth uids 28; the embedded and in-memory backends make theirs so.
 * @param length how many characters (an integer ≥ 0)
 * @returns a string of `length` characters of {@link ID_ALPHABET}
 */
export function randomId(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of globalThis.crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < 248 && out.length < length) out += ID_ALPHABET[byte % 62];
    }
  }
  return out;
}
