/**
 * The rules an export is held to before `catalog import` writes anything (an export folder is
 * untrusted input): each document alone ({@link checkExportedDocument}) and the documents
 * together with the catalog they are imported into ({@link importRuleProblems}): references,
 * counts, stored files' owners, accounts and who becomes an admin. Pure functions over parsed
 * documents; `catalog-import-plan.ts` reads the folder, `catalog-import.ts` writes.
 */
import { normalizeEmailOrNull } from '@shared/email.js';
import type { ExistingAccount, ExportedFile } from '@shared/export-layout.js';
import { parseModelPath, validateModelFilePath } from '@shared/paths.js';
import type { CollectionName } from '@shared/types.js';
import { parseStoredDocument } from '@shared/validation/documents.js';
import { docIdSchema } from '@shared/wire/catalog.js';

/** A document as an export lists it: its data with its id. */
export type ExportedDoc = Record<string, unknown> & { id: string };

/** Documents by collection, each by id. */
export type DocsByCollection = ReadonlyMap<CollectionName, ReadonlyMap<string, Record<string, unknown>>>;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The path fields of a model's `files` holding one stored path. */
const MODEL_PATH_FIELDS = ['splatPath', 'glbPath', 'cameraMetadata', 'webSplatPath', 'webSplatPreviewPath', 'webGlbPath'] as const;
/** The path fields of a model's `files` holding a list of stored paths. */
const MODEL_PATH_LIST_FIELDS = ['images', 'thumbnails', 'assets'] as const;

/** A model's stored paths: each follows the stored-path rule and lies in the model's own folder. */
function modelFileProblems(data: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const files = data.files;
  if (files === undefined || files === null) return problems;
  if (!isPlainObject(files)) return ['files is not an object'];
  const uuid = text(data.uuid);
  const check = (field: string, path: unknown): void => {
    if (typeof path !== 'string') return void problems.push(`files.${field} is not a stored path`);
    try {
      validateModelFilePath(path);
    } catch (error) {
      return void problems.push(`files.${field}: ${(error as Error).message}`);
    }
    if (parseModelPath(path)?.uuid !== uuid) problems.push(`files.${field}: ${path} is not in the model's own folder models/${uuid}/`);
  };
  for (const field of MODEL_PATH_FIELDS) if (files[field] !== undefined && files[field] !== null) check(field, files[field]);
  for (const field of MODEL_PATH_LIST_FIELDS) {
    const list = files[field];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) problems.push(`files.${field} is not a list`);
    else list.forEach((path, i) => check(`${field}[${i}]`, path));
  }
  return problems;
}

/** Schema problems reported with the other documents' (one message for all): a model's Public ID, a project's coordinates. */
const GROUPED_PATHS: Partial<Record<CollectionName, readonly string[]>> = {
  models: ['publicId'],
  projects: ['location.lat', 'location.lng'],
};

/**
 * The check of one imported document, the same as a live write of it: its id is a valid document
 * id, and its data is its collection's stored document (`parseStoredDocument`: the strict schema,
 * unknown fields refused, and the key rule); a model's stored paths also follow the stored-path
 * rule (`validateModelFilePath`) inside the model's own folder. A model's Public ID and a
 * project's coordinates are reported with the other models' and projects' (`publicIdClashes`,
 * `projectLocationProblems`), not here.
 * @param collection the document's collection
 * @param id its id
 * @param data its data (without `id`)
 * @returns the document to store (the schema's output; null when it has problems) and one line
 *   per problem, each starting with `{collection}/{id}:` and naming the field
 */
export function checkExportedDocument(
  collection: CollectionName,
  id: string,
  data: unknown,
): { value: Record<string, unknown> | null; problems: string[] } {
  const at = (problem: string): string => `${collection}/${id.slice(0, 120)}: ${problem}`;
  if (!docIdSchema.safeParse(id).success)
    return { value: null, problems: [`${collection}: ${JSON.stringify(id.slice(0, 120))} is not a valid document id`] };
  if (!isPlainObject(data)) return { value: null, problems: [at('is not an object')] };
  const parsed = parseStoredDocument(collection, id, data);
  const grouped = GROUPED_PATHS[collection] ?? [];
  const problems = parsed.ok
    ? []
    : parsed.problems
        .filter((p) => !grouped.includes(p.path.join('.')))
        .map((p) => at(p.path.length > 0 && !p.message.includes(p.path.join('.')) ? `${p.path.join('.')}: ${p.message}` : p.message));
  if (collection === 'models') problems.push(...modelFileProblems(data).map(at));
  return { value: parsed.ok && problems.length === 0 ? (parsed.value as unknown as Record<string, unknown>) : null, problems };
}

/** What {@link importRuleProblems} looks at. */
export interface ImportRuleInput {
  /** The export's documents by collection and id. */
  exported: DocsByCollection;
  /** The target catalog's documents by collection and id. */
  target: DocsByCollection;
  /** The stored files the export lists. */
  files: readonly ExportedFile[];
  /** The target's sign-in accounts (null when the backend does not tell). */
  targetAccounts: readonly ExistingAccount[] | null;
  /** The accounts the export brings (added or already there). */
  importedAccounts: readonly ExistingAccount[];
}

/** The documents after the import: the target's, overwritten by the export's. */
function overlay(exported: DocsByCollection, target: DocsByCollection, collection: CollectionName): Map<string, Record<string, unknown>> {
  return new Map([...(target.get(collection) ?? new Map()), ...(exported.get(collection) ?? new Map())]);
}

const emailKey = (value: unknown): string | null => (typeof value === 'string' ? normalizeEmailOrNull(value) : null);

/**
 * The rules across documents, over the catalog the import would give (the target's documents
 * overwritten by the export's), for what the export brings:
 * - a model's project exists, a project's reference model exists, no two models share a uuid (a
 *   storage folder);
 * - a finding's model exists and has the finding's project; a follow-up's original finding exists
 *   on the model it names;
 * - every model the export touches (its models, the models of its findings) has
 *   `metadata.annotationsCount` equal to its findings and `annotationsSeq` at least their highest
 *   number;
 * - an alignment's two models exist; a change map's two models exist and its values file lies in
 *   its capture's folder (`models/{capture uuid}/changes/{referenceModelId}.bin`);
 * - every listed stored file lies in the folder of a model (`models/{uuid}/`);
 * - a user record's email is its account's;
 * - the import never makes an existing account an admin (by its user record's role, or by the
 *   admins list for an account without a record): granting admin is done in the catalog.
 * @returns one line per broken rule, each naming the document or file, and the emails (or uids)
 *   of the new accounts the import makes admins (for the person importing to see)
 */
export function importRuleProblems(input: ImportRuleInput): { problems: string[]; newAdmins: string[] } {
  const { exported, target } = input;
  const problems: string[] = [];
  const projects = overlay(exported, target, 'projects');
  const models = overlay(exported, target, 'models');
  const findings = overlay(exported, target, 'annotations');
  const exportedOf = (collection: CollectionName): ReadonlyMap<string, Record<string, unknown>> => exported.get(collection) ?? new Map();

  const folderOwner = new Map<string, string>();
  for (const [id, model] of models) {
    const uuid = text(model.uuid);
    if (uuid === '') continue;
    const other = folderOwner.get(uuid);
    if (other !== undefined && (exportedOf('models').has(id) || exportedOf('models').has(other)))
      problems.push(`models/${id}: uuid ${uuid} is also the uuid of model ${other} (one storage folder per model)`);
    folderOwner.set(uuid, id);
  }
  for (const [id, model] of exportedOf('models')) {
    const projectId = model.projectId;
    if (typeof projectId === 'string' && !projects.has(projectId))
      problems.push(`models/${id}: its project ${projectId} is neither in the export nor in the catalog`);
  }
  for (const [id, project] of exportedOf('projects')) {
    const reference = project.reference_model_id;
    if (typeof reference === 'string' && reference !== '' && !models.has(reference))
      problems.push(`projects/${id}: its reference model ${reference} is neither in the export nor in the catalog`);
  }

  const touched = new Set(exportedOf('models').keys());
  for (const [id, finding] of exportedOf('annotations')) {
    const modelId = text(finding.modelId);
    const model = models.get(modelId);
    if (!model) {
      problems.push(`annotations/${id}: its model ${modelId} is neither in the export nor in the catalog`);
      continue;
    }
    touched.add(modelId);
    if ((finding.projectId ?? null) !== (model.projectId ?? null))
      problems.push(
        `annotations/${id}: its project ${String(finding.projectId ?? null)} is not its model's (${String(model.projectId ?? null)})`,
      );
    const followUp = finding.followUpOf;
    if (followUp !== undefined && followUp !== null) {
      const original = isPlainObject(followUp) ? findings.get(text(followUp.annotationId)) : undefined;
      if (!original || !isPlainObject(followUp) || original.modelId !== followUp.modelId)
        problems.push(`annotations/${id}: followUpOf names no finding of the export or the catalog on the model it gives`);
    }
  }
  const byModel = new Map<string, { count: number; maxSeq: number }>();
  for (const finding of findings.values()) {
    const entry = byModel.get(text(finding.modelId)) ?? { count: 0, maxSeq: 0 };
    entry.count += 1;
    entry.maxSeq = Math.max(entry.maxSeq, typeof finding.seq === 'number' ? finding.seq : 0);
    byModel.set(text(finding.modelId), entry);
  }
  for (const modelId of touched) {
    const model = models.get(modelId);
    if (!model) continue;
    const metadata = isPlainObject(model.metadata) ? model.metadata : {};
    const count = typeof metadata.annotationsCount === 'number' ? metadata.annotationsCount : 0;
    const seq = typeof metadata.annotationsSeq === 'number' ? metadata.annotationsSeq : 0;
    const stored = byModel.get(modelId) ?? { count: 0, maxSeq: 0 };
    if (count !== stored.count)
      problems.push(`models/${modelId}: metadata.annotationsCount is ${count} but the import would leave ${stored.count} findings on it`);
    if (seq < stored.maxSeq)
      problems.push(`models/${modelId}: metadata.annotationsSeq is ${seq}, below its finding number ${stored.maxSeq}`);
  }
  for (const [id, alignment] of exportedOf('alignments')) {
    for (const field of ['referenceModelId', 'modelId'] as const) {
      const modelId = text(alignment[field]);
      if (modelId !== '' && !models.has(modelId))
        problems.push(`alignments/${id}: its ${field} ${modelId} is neither in the export nor in the catalog`);
    }
  }
  for (const [id, changeMap] of exportedOf('changeMaps')) {
    for (const field of ['referenceModelId', 'modelId'] as const) {
      const modelId = text(changeMap[field]);
      if (modelId !== '' && !models.has(modelId))
        problems.push(`changeMaps/${id}: its ${field} ${modelId} is neither in the export nor in the catalog`);
    }
    const capture = models.get(text(changeMap.modelId));
    const valuesPath = text(changeMap.valuesPath);
    if (capture && parseModelPath(valuesPath)?.uuid !== text(capture.uuid))
      problems.push(`changeMaps/${id}: its valuesPath ${valuesPath} is not in its capture's folder models/${text(capture.uuid)}/`);
    else if (capture) {
      try {
        validateModelFilePath(valuesPath);
      } catch (error) {
        problems.push(`changeMaps/${id}: valuesPath: ${(error as Error).message}`);
      }
    }
  }
  for (const file of input.files) {
    const uuid = parseModelPath(file.path)?.uuid ?? '';
    if (!folderOwner.has(uuid)) problems.push(`files/${file.path}: belongs to no model of the export or the catalog (models/${uuid}/)`);
  }

  // Accounts and roles.
  const accountEmail = new Map<string, string>();
  for (const a of [...(input.targetAccounts ?? []), ...input.importedAccounts]) accountEmail.set(a.uid, a.email);
  for (const [id, user] of exportedOf('users')) {
    const known = accountEmail.get(id);
    const email = emailKey(user.email);
    if (known !== undefined && email !== null && email !== known)
      problems.push(`users/${id}: email ${email} is not its account's (${known})`);
  }
  const targetUsers = target.get('users') ?? new Map();
  const finalUsers = overlay(exported, target, 'users');
  const targetAdmins = new Set([...(target.get('admins') ?? new Map()).keys()].map(emailKey));
  const finalAdmins = new Set([...overlay(exported, target, 'admins').keys()].map(emailKey));
  const isAdmin = (
    users: ReadonlyMap<string, Record<string, unknown>>,
    admins: ReadonlySet<string | null>,
    uid: string,
    email: string | null,
  ) => {
    const record = users.get(uid);
    return record ? record.role === 'admin' : email !== null && admins.has(email);
  };
  const existing = new Map<string, string | null>();
  for (const [uid, user] of targetUsers) existing.set(uid, emailKey(user.email));
  for (const a of input.targetAccounts ?? []) existing.set(a.uid, a.email);
  for (const [uid, email] of existing) {
    if (!isAdmin(targetUsers, targetAdmins, uid, email) && isAdmin(finalUsers, finalAdmins, uid, email))
      problems.push(
        `users/${uid}${email ? ` (${email})` : ''}: the import would make this existing account an admin; an import never raises an account's role (make it an admin in the catalog instead)`,
      );
  }
  const newAdmins = new Set<string>();
  for (const [uid, user] of finalUsers) if (!existing.has(uid) && user.role === 'admin') newAdmins.add(emailKey(user.email) ?? uid);
  for (const a of input.importedAccounts)
    if (!existing.has(a.uid) && !finalUsers.has(a.uid) && finalAdmins.has(a.email)) newAdmins.add(a.email);
  return { problems, newAdmins: [...newAdmins].sort() };
}
