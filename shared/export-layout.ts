/**
 * The layout of a catalog export (`catalog export <dir>` / `catalog import <dir>`), so that a
 * catalog can move between backends. Pure: names, the manifest's schema and the rules of
 * exported sign-in accounts; the CLI does the I/O.
 *
 * ```
 * <dir>/catalog.json                  manifest: {format, version, exportedAt, source, counts, files}
 * <dir>/documents/<collection>.json   every document of users, admins, projects, models,
 *                                     annotations (findings), alignments and changeMaps:
 *                                     a JSON array of {id, ...data}, sorted by id
 * <dir>/files/<storage path>          every stored file under models/, byte for byte
 * <dir>/accounts.json                 sign-in accounts [{uid, email, password_hash, disabled}]
 *                                     (embedded backend only; file mode 0600: keep it private)
 * ```
 * Timestamps are kept as written (ISO strings). Accounts are not part of the ports: they are
 * read and written through the embedded server's service-key-only account API; a backend
 * without it exports none, and its users are registered again on the target.
 *
 * An export folder is untrusted input (anyone may have prepared it): the manifest is checked
 * strictly here, every stored path by the server's own path rule, and every account's password
 * hash by the rule below, before anything is imported.
 */
import { z } from 'zod';
import { normalizeEmailOrNull } from './email.js';
import { validateModelFilePath } from './paths.js';
import type { CollectionName } from './types.js';

/** `format` of an export manifest. */
export const EXPORT_FORMAT = 'inspection-catalog-export';
/** Version of the layout described above. */
export const EXPORT_VERSION = 1;
/** The manifest's file name. */
export const EXPORT_MANIFEST = 'catalog.json';
/** Folder of the document files. */
export const EXPORT_DOCUMENTS_DIR = 'documents';
/** Folder of the stored files. */
export const EXPORT_FILES_DIR = 'files';
/** Sign-in accounts file (embedded backend). */
export const EXPORT_ACCOUNTS = 'accounts.json';
/**
 * Collections exported, in import order (findings after their models, so the models' counts
 * arrive with the findings they count).
 */
export const EXPORT_COLLECTIONS: readonly CollectionName[] = [
  'users',
  'admins',
  'projects',
  'models',
  'annotations',
  'alignments',
  'changeMaps',
];

/**
 * Collections an export may lack: exports made before findings existed have no
 * `annotations.json` or `alignments.json`, and those made before change maps no
 * `changeMaps.json`; an import reads them as empty.
 */
export const EXPORT_OPTIONAL_COLLECTIONS: readonly CollectionName[] = ['annotations', 'alignments', 'changeMaps'];

/** Largest `catalog.json` an import reads, in bytes (a manifest lists every file: about 150 bytes each). */
export const EXPORT_MANIFEST_MAX_BYTES = 64 * 1024 * 1024;
/** Largest `documents/<collection>.json` an import reads, in bytes. */
export const EXPORT_DOCUMENTS_MAX_BYTES = 256 * 1024 * 1024;
/** Largest `accounts.json` an import reads, in bytes (about 250 bytes per account). */
export const EXPORT_ACCOUNTS_MAX_BYTES = 16 * 1024 * 1024;

/** One stored file listed in the manifest. size in bytes. */
export interface ExportedFile {
  path: string;
  size: number;
  contentType?: string | null;
}

/** The export manifest (`catalog.json`). */
export interface ExportManifest {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  /** ISO timestamp. */
  exportedAt: string;
  /** Where it came from (a URL), for people. */
  source: string;
  counts: Record<string, number>;
  files: ExportedFile[];
}

/** A MIME type as a stored file's content type: `type/subtype` with optional parameters, no control characters. */
const CONTENT_TYPE_RE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}(\s*;[\x20-\x7e]{0,200})?$/;

const exportedFileSchema = z
  .object({
    path: z.string().min(1).max(1024),
    size: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    contentType: z.string().regex(CONTENT_TYPE_RE, 'not a content type').nullable().optional(),
  })
  .strict();

/** The manifest's schema: exactly these keys, each of its type (the format and version are checked first, with their own messages). */
const manifestSchema = z
  .object({
    format: z.literal(EXPORT_FORMAT),
    version: z.literal(EXPORT_VERSION),
    exportedAt: z.string().max(64),
    source: z.string().max(2048),
    counts: z.record(z.string().max(64), z.number().int().min(0)),
    files: z.array(z.unknown()),
  })
  .strict();

const issueText = (issues: readonly z.core.$ZodIssue[]): string =>
  issues
    .slice(0, 5)
    .map((i) => `${i.path.length > 0 ? `${i.path.join('.')}: ` : ''}${i.message}`)
    .join('; ');

/**
 * Checks a parsed `catalog.json` and every file it lists, collecting every problem: the manifest
 * has exactly the keys of {@link ExportManifest}, each of its type; each file entry has exactly
 * `path`, `size` (whole bytes) and an optional `contentType` (a MIME type or null); each path
 * follows the server's rule for stored model files (`validateModelFilePath`: `models/{uuid}/…`,
 * no '..', no links out of the model's folder) and is listed once.
 * @param value the parsed JSON
 * @returns the manifest (null when its shape is wrong) and one line per problem, each naming the
 *   file entry it is about (empty when the manifest may be imported)
 */
export function exportManifestProblems(value: unknown): { manifest: ExportManifest | null; problems: string[] } {
  const m = value as Partial<ExportManifest> | null;
  if (typeof m !== 'object' || m === null || Array.isArray(m) || m.format !== EXPORT_FORMAT)
    return { manifest: null, problems: [`${EXPORT_MANIFEST} is not a catalog export (format "${EXPORT_FORMAT}")`] };
  if (m.version !== EXPORT_VERSION)
    return { manifest: null, problems: [`${EXPORT_MANIFEST} has version ${String(m.version)}; this CLI reads version ${EXPORT_VERSION}`] };
  const shape = manifestSchema.safeParse(value);
  if (!shape.success) return { manifest: null, problems: [`${EXPORT_MANIFEST} is not a valid manifest: ${issueText(shape.error.issues)}`] };
  const problems: string[] = [];
  const seen = new Set<string>();
  const files: ExportedFile[] = [];
  shape.data.files.forEach((entry, index) => {
    const shown = JSON.stringify(entry)?.slice(0, 200) ?? String(entry);
    const parsed = exportedFileSchema.safeParse(entry);
    if (!parsed.success) {
      problems.push(`${EXPORT_MANIFEST} lists a bad file (entry ${index + 1}): ${shown}: ${issueText(parsed.error.issues)}`);
      return;
    }
    try {
      validateModelFilePath(parsed.data.path);
    } catch (error) {
      problems.push(`${EXPORT_MANIFEST} lists a bad file: ${parsed.data.path.slice(0, 200)}: ${(error as Error).message}`);
      return;
    }
    if (seen.has(parsed.data.path)) {
      problems.push(`${EXPORT_MANIFEST} lists ${parsed.data.path} more than once`);
      return;
    }
    seen.add(parsed.data.path);
    files.push(parsed.data);
  });
  return { manifest: { ...shape.data, files } as ExportManifest, problems };
}

/**
 * Checks a parsed `catalog.json` ({@link exportManifestProblems}).
 * @param value the parsed JSON
 * @returns the manifest
 * @throws Error with a readable message naming every problem when it is not an export manifest of
 *   this version, has keys or types other than the layout's, or lists a file whose path breaks
 *   the stored-path rule or is listed twice ("… lists a bad file …")
 */
export function checkExportManifest(value: unknown): ExportManifest {
  const { manifest, problems } = exportManifestProblems(value);
  if (manifest === null || problems.length > 0) throw new Error(problems.join('\n'));
  return manifest;
}

// ---------------------------------------------------------------------------------------------
// Sign-in accounts (accounts.json)
// ---------------------------------------------------------------------------------------------

/** A sign-in account as `accounts.json` holds it. */
export interface ExportedAccountEntry {
  uid: string;
  email: string;
  password_hash: string;
  disabled: boolean;
}

/**
 * The scrypt parameters an imported password hash may have. Signing in runs scrypt with the
 * stored parameters, so a hash is bounded like the ones the embedded server writes (N 16384, r 8,
 * p 1, a 16-byte salt, a 64-byte key): N a power of two from 2^10 to 2^20, r 1–32, p 1–16, memory
 * 128·r·(N + 2 + p) bytes at most 64 MiB (what scrypt allocates; the server's limit), N·r·p at most
 * 2^24 (CPU), salt 16–64 bytes, key 32–64 bytes.
 */
export const PASSWORD_HASH_LIMITS = {
  minLogN: 10,
  maxLogN: 20,
  maxR: 32,
  maxP: 16,
  maxMemoryBytes: 64 * 1024 * 1024,
  maxWork: 2 ** 24,
  saltBytes: [16, 64],
  keyBytes: [32, 64],
} as const;

/** A uid as the embedded server gives them (28 letters and digits) or Firebase Auth does: 1–128 letters, digits, '-' or '_'. */
const UID_RE = /^[A-Za-z0-9_-]{1,128}$/;
const DECIMAL_RE = /^[1-9][0-9]{0,9}$/;
const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Bytes a canonical base64 text decodes to, or -1 when it is not canonical base64. */
function base64Bytes(text: string): number {
  if (text === '' || !BASE64_RE.test(text)) return -1;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return (text.length / 4) * 3 - padding;
}

/**
 * The rule of a stored password hash: `scrypt$N$r$p$salt$key` with decimal N, r, p and base64
 * salt and key within {@link PASSWORD_HASH_LIMITS}.
 * @param hash the `password_hash` of an account
 * @returns null when it follows the rule, else what is wrong
 */
export function passwordHashProblem(hash: unknown): string | null {
  if (typeof hash !== 'string' || hash.length > 512) return 'the password hash is not text of at most 512 characters';
  const parts = hash.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return 'the password hash is not scrypt$N$r$p$salt$key';
  const [, nText, rText, pText, salt, key] = parts as [string, string, string, string, string, string];
  if (![nText, rText, pText].every((t) => DECIMAL_RE.test(t))) return 'the scrypt parameters are not whole numbers';
  const [n, r, p] = [Number(nText), Number(rText), Number(pText)];
  const L = PASSWORD_HASH_LIMITS;
  const logN = Math.log2(n);
  if (!Number.isInteger(logN) || logN < L.minLogN || logN > L.maxLogN)
    return `scrypt N ${n} is not a power of two from 2^${L.minLogN} to 2^${L.maxLogN}`;
  if (r > L.maxR || p > L.maxP || 128 * r * (n + 2 + p) > L.maxMemoryBytes || n * r * p > L.maxWork)
    return `scrypt parameters N ${n}, r ${r}, p ${p} exceed the limits (r ≤ ${L.maxR}, p ≤ ${L.maxP}, 128·r·(N + 2 + p) bytes ≤ 64 MiB, N·r·p ≤ 2^24)`;
  const saltBytes = base64Bytes(salt);
  if (saltBytes < L.saltBytes[0] || saltBytes > L.saltBytes[1])
    return `the salt is not base64 of ${L.saltBytes[0]}–${L.saltBytes[1]} bytes`;
  const keyBytes = base64Bytes(key);
  if (keyBytes < L.keyBytes[0] || keyBytes > L.keyBytes[1]) return `the key is not base64 of ${L.keyBytes[0]}–${L.keyBytes[1]} bytes`;
  return null;
}

/** An account that already exists where accounts are imported. */
export interface ExistingAccount {
  uid: string;
  email: string;
}

/**
 * The rule of importing sign-in accounts (password hashes: importing them is a privilege, so an
 * export prepared by someone else must not take over an account):
 * - each entry has exactly `uid` (1–128 letters, digits, '-', '_'), `email` (valid and already
 *   normalised: trimmed, lower case), `password_hash` ({@link passwordHashProblem}) and
 *   `disabled` (boolean);
 * - no uid and no email appears twice in the list;
 * - an entry whose uid belongs to an existing account must have that account's email, and then
 *   it is left as it is (the existing password and state are kept: an import never changes an
 *   account); an entry whose email belongs to an existing account must have its uid.
 * @param value the parsed `accounts.json` (or a request's list)
 * @param existing the accounts already there
 * @returns the entries to add (new uid and email) and one line per problem, each naming the
 *   account by its position, uid and email (empty when the accounts may be imported)
 */
export function importedAccountsProblems(
  value: unknown,
  existing: readonly ExistingAccount[],
): { added: ExportedAccountEntry[]; kept: ExportedAccountEntry[]; problems: string[] } {
  const problems: string[] = [];
  const added: ExportedAccountEntry[] = [];
  const kept: ExportedAccountEntry[] = [];
  if (!Array.isArray(value)) return { added, kept, problems: [`${EXPORT_ACCOUNTS} is not a list of accounts`] };
  const byUid = new Map(existing.map((a) => [a.uid, a]));
  const byEmail = new Map(existing.map((a) => [a.email, a]));
  const seenUids = new Set<string>();
  const seenEmails = new Set<string>();
  const keys = ['uid', 'email', 'password_hash', 'disabled'];
  value.forEach((entry: unknown, index) => {
    const a = entry as Partial<ExportedAccountEntry> | null;
    const named = [
      typeof a?.uid === 'string' ? `uid ${JSON.stringify(a.uid.slice(0, 60))}` : null,
      typeof a?.email === 'string' ? `email ${JSON.stringify(a.email.slice(0, 100))}` : null,
    ].filter((part) => part !== null);
    const label = `account ${index + 1}${named.length > 0 ? ` (${named.join(', ')})` : ''}`;
    const fail = (why: string): void => void problems.push(`${label}: ${why}`);
    if (typeof a !== 'object' || a === null || Array.isArray(a)) return fail('not an object');
    const extra = Object.keys(a).filter((k) => !keys.includes(k));
    if (extra.length > 0) return fail(`unknown fields ${extra.map((k) => JSON.stringify(k.slice(0, 40))).join(', ')}`);
    if (typeof a.uid !== 'string' || !UID_RE.test(a.uid)) return fail('the uid is not 1–128 letters, digits, - or _');
    if (typeof a.email !== 'string' || normalizeEmailOrNull(a.email) !== a.email)
      return fail('the email is not a valid, lower-case address');
    if (typeof a.disabled !== 'boolean') return fail('disabled is not true or false');
    const hashProblem = passwordHashProblem(a.password_hash);
    if (hashProblem !== null) return fail(hashProblem);
    if (seenUids.has(a.uid)) return fail('the uid is listed twice');
    if (seenEmails.has(a.email)) return fail('the email is listed twice');
    seenUids.add(a.uid);
    seenEmails.add(a.email);
    const sameUid = byUid.get(a.uid);
    const sameEmail = byEmail.get(a.email);
    if (sameUid && sameUid.email !== a.email)
      return fail(`the uid belongs to the existing account ${sameUid.email}: an import never takes over an account`);
    if (sameEmail && sameEmail.uid !== a.uid)
      return fail(`the email belongs to the existing account ${sameEmail.uid}: an import never takes over an account`);
    const account = { uid: a.uid, email: a.email, password_hash: a.password_hash as string, disabled: a.disabled };
    (sameUid ? kept : added).push(account);
  });
  return { added, kept, problems };
}
