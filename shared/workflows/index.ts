/** Workflows over the ports: each multi-record change of the catalog, once. */
export { resolveRole } from './resolve-role.js';
export { addModel, ADD_MODEL_STAGES } from './add-model.js';
export type { AddModelFile, AddModelHooks, AddModelInput, AddModelResult, AddModelStage } from './add-model.js';
export type { FileStatus } from './util.js';
export { assertPublicIdFree } from './public-id.js';
export { deleteModel } from './delete-model.js';
export { referencedPaths } from './model-storage-paths.js';
export { setReferenceModel } from './reference.js';
export { setModelVisibility } from './visibility.js';
export {
  checkStoredFile,
  checkModelRecordFiles,
  checkedPathsOf,
  compareGenerations,
  refusalUpdate,
  STORED_CHECKER,
  STORED_CHECK_CONCURRENCY,
} from './stored-file-checks.js';
export type { ModelRecordOutcome, StoredFileChecksOptions, StoredFileOutcome } from './stored-file-checks.js';
export { createProject, updateProject, deleteProject, deleteProjectWithModels, PROJECT_DELETE_CHUNK } from './projects.js';
export type { DeleteProjectProgress } from './projects.js';
export { registerUser, grantAdmin } from './users.js';
export { listModelFiles, listFilesOfModel } from './model-files-list.js';
export { uploadAdditionalFiles, uploadCameraMetadata, ADDITIONAL_UPLOAD_STAGES } from './model-files-upload.js';
export type { AdditionalFileKind, AdditionalUploadHooks, AdditionalUploadStage } from './model-files-upload.js';
export { deleteModelFile, deleteAllModelFiles, deletableFiles } from './model-files-delete.js';
export { updateModel } from './update-model.js';
export {
  createAnnotation,
  updateAnnotation,
  deleteAnnotation,
  listModelAnnotations,
  listProjectAnnotations,
  setUnitsPerMetre,
} from './annotations.js';
export type { AnnotationAuthor } from './annotations.js';
export { deleteModelsFindings, deleteModelsWithFindings, FINDINGS_DELETE_BATCH } from './model-delete-records.js';
export type { DeletedFindings } from './model-delete-records.js';
export {
  saveAlignment,
  getAlignment,
  deleteAlignment,
  carryOverAnnotation,
  mapAnnotationAcross,
  acceptRegistration,
  resetAlignment,
  alignmentBeforeRegistration,
} from './alignments.js';
export type { SaveAlignmentInput, AcceptRegistrationInput } from './alignments.js';
export { saveChangeMap, getChangeMap, listChangeMaps, deleteChangeMap } from './change-maps.js';
export type { SaveChangeMapInput } from './change-maps.js';
