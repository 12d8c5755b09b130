/**
 * The message catalogue: every user-facing message (validation, errors, confirmations), verbatim,
 * in one place. Screens and the CLI print these; tests assert them. Parameterised messages are
 * functions. Most texts are given wording, kept exactly; those marked 'Ours' are our own.
 */
import { ErrorCode, errorMessage, isAppError } from './errors.js';

/** Sign-in messages. */
export const SignInMessages = {
  [ErrorCode.InvalidEmail]: 'Invalid email format.',
  [ErrorCode.UserDisabled]: 'The account has been disabled.',
  [ErrorCode.UserNotFound]: 'User not registered.',
  [ErrorCode.WrongPassword]: 'Incorrect password.',
  otherCode: 'An error occurred during login.',
  unknown: 'An unexpected error occurred during login.',
} as const;

/**
 * The sign-in message for an error thrown by `identity.signIn`.
 * @param error anything caught
 * @returns the catalogue's text: the code's message, 'An error occurred during login.' for any other
 *   code, 'An unexpected error occurred during login.' for an error without a code
 */
export function signInErrorMessage(error: unknown): string {
  const code = errorCodeOf(error);
  if (code === undefined) return SignInMessages.unknown;
  return (SignInMessages as Record<string, string>)[code] ?? SignInMessages.otherCode;
}

/** Registration messages. */
export const RegistrationMessages = {
  [ErrorCode.EmailAlreadyInUse]: 'This email is already in use.',
  [ErrorCode.InvalidEmail]: 'Invalid email format.',
  [ErrorCode.WeakPassword]: 'The password is too weak.',
  unknown: 'An unexpected error occurred during registration.',
} as const;

/**
 * The registration message for an error thrown while creating an account.
 * @returns the code's message; 'An error occurred while registering the user: {message}' for
 *   other codes; 'An unexpected error occurred during registration.' without a code
 */
export function registrationErrorMessage(error: unknown): string {
  const code = errorCodeOf(error);
  if (code === undefined) return RegistrationMessages.unknown;
  const known = (RegistrationMessages as Record<string, string>)[code];
  if (known !== undefined && code !== 'unknown') return known;
  return `An error occurred while registering the user: ${errorMessage(error)}`;
}

/** Validation messages, verbatim. */
export const ValidationMessages = {
  // model list upload
  uploadFileRequired: 'At least one file (splat or glb) is required.',
  uploadIdAndNameRequired: 'Please enter publicId and name.',
  // add model
  addModelFilesMissing: 'Required file types are missing based on the selected model type.',
  addModelIdAndNameRequired: 'Please enter Public ID and Model Name.',
  // project form
  projectNameEmpty: 'Project name cannot be empty',
  // edit model
  modelNameRequired: 'Model name is required',
  publicIdRequired: 'Public ID is required',
  publicIdPattern: 'Public ID can only contain letters, numbers, hyphens, and underscores',
  invalidDate: 'Please enter a valid date',
  // camera metadata
  cameraOneFile: 'Only one JSON file can be uploaded for camera metadata',
  cameraJsonOnly: 'Only JSON files are allowed for camera metadata',
  cameraInvalidJson: 'Invalid JSON file',
  cameraNotArray: 'Metadata must be in array format',
  cameraEmpty: 'At least one camera data is required',
  // register user
  registerBothRequired: 'Please enter both email and password.',
  registerPasswordShort: 'Password must be at least 6 characters long.',
  registerEmailExists: 'This email is already registered.',
  // set admin
  setAdminNeedsInput: 'Please enter either email or user ID',
  setAdminEmailOnly:
    "Setting the admin role needs the user's UID. Find the user's UID in the identity provider's console (Authentication > Users) first, then enter it here.",
  // delete model / project
  modelNameMismatch: "Model name doesn't match. Deletion canceled.",
  cannotDeleteMainFiles: 'Cannot delete main model files. Delete the entire model instead.',
  projectNameMismatch: "Project name doesn't match. Deletion canceled.",
  projectDeleteWarning: 'This action cannot be undone. The project will be permanently deleted.',
  projectDeletePlaceholder: 'Type project name here...',
} as const;

/**
 * Validation texts of our own wording for rules that had none (project form: "Map URL must be a
 * URL", "Latitude and longitude must be numeric"; the add-model type); kept here so that every
 * user-facing text stays in this catalogue.
 */
export const FormMessages = {
  projectMapUrlInvalid: 'Map URL must be a valid URL (http or https).',
  projectLatitudeInvalid: 'Latitude must be a number.',
  projectLongitudeInvalid: 'Longitude must be a number.',
  /** A latitude outside −90..90 would stretch the map. */
  projectLatitudeRange: 'Latitude must be between -90 and 90',
  /** A longitude outside −180..180 would stretch the map. */
  projectLongitudeRange: 'Longitude must be between -180 and 180',
  modelTypeInvalid: 'Model type must be hybrid, splat or mesh.',
} as const;

/** 'JSON format error: ...' wrapper for combined camera errors (each prefixed 'Camera N:'). */
export const cameraFormatError = (details: string): string => `JSON format error: ${details}`;
/** Delete-all confirmation. */
export const confirmDeleteAllFiles = (n: number): string => `Are you sure you want to delete all ${n} files?`;
/** Project delete prompt. */
export const projectDeletePrompt = (projectName: string): string => `Please type ${projectName} to confirm:`;

/** Upload and model messages. */
export const ModelMessages = {
  listUploadFailed: 'An error occurred during upload.',
  listUploadSucceeded: 'Model uploaded successfully!',
  addModelSucceeded: '✅ Model uploaded successfully!',
  visibilityFailed: 'Failed to update visibility',
  loadModelsFailed: 'Failed to load models list.',
  loadProjectsFailed: 'Failed to load projects list.',
  loadFilesFailed: 'Failed to load model files. Please try again.',
  deleteFileFailed: 'Failed to delete file. Please try again.',
  fileDeleted: 'File deleted successfully.',
  noFilesToDelete: 'No files to delete.',
  deleteAllFailed: 'Failed to delete all files. Please try again.',
  uploadFilesFailed: 'Failed to upload files. Please try again later.',
  updateModelFailed: 'Failed to update model information.',
  modelUpdated: 'Model information updated successfully.',
  fetchModelFailed: 'Failed to fetch model information.',
  /** Ours: an upload the user canceled is not an error. */
  uploadCanceled: 'Upload canceled.',
} as const;

/** 'An error occurred during upload: ...' (add-model page). */
export const addModelUploadError = (detail: string): string => `An error occurred during upload: ${detail}`;
/** 'Successfully deleted N files.' */
export const filesDeleted = (n: number): string => `Successfully deleted ${n} files.`;
/** 'Successfully uploaded N files to {folder}.' */
export const filesUploaded = (n: number, folder: string): string => `Successfully uploaded ${n} files to ${folder}.`;
/** 'Camera metadata uploaded successfully. N camera position information saved.' */
export const cameraMetadataUploaded = (n: number): string =>
  `Camera metadata uploaded successfully. ${n} camera position information saved.`;
/** 'Failed to delete model: ...' */
export const deleteModelFailed = (detail: string): string => `Failed to delete model: ${detail}`;
/** 'Model "name" has been deleted successfully.' */
export const modelDeleted = (name: string): string => `Model "${name}" has been deleted successfully.`;
/**
 * 'Model "name" has been deleted successfully.', followed, when `filesLeft` > 0, by our wording
 * for the files that could not be removed.
 */
export const modelDeletedWithLeftovers = (name: string, filesLeft: number): string =>
  filesLeft > 0
    ? `${modelDeleted(name)} ${filesLeft} of its files could not be deleted; \`catalog doctor --fix\` removes them.`
    : modelDeleted(name);

/**
 * Ours: showing a model the content checks of its stored files refused (Firebase's Cloud
 * Functions: `contentRefusal`). `problem` is the first refused file's message, which ends with a full stop.
 */
export const refusedModelStaysHidden = (problem: string, more: number): string =>
  `This model stays hidden: a file failed its content check. ${problem}${more > 0 ? ` (${more} more.)` : ''} Replace or delete the file first.`;

/** Project messages. */
export const ProjectMessages = {
  notFoundAlert: 'Project not found!',
  notFound: 'Project not found',
  notFoundSentence: 'Project not found.',
  updated: 'Project updated successfully!',
  created: 'Project created successfully!',
  referenceUpdateFailed: 'Failed to update the reference model.',
  referenceUpdated: 'Reference model has been updated successfully.',
  infoUpdated: 'Project information updated successfully.',
  infoUpdateFailed: 'Failed to update project information.',
  replaceReferenceQuestion: 'This project already has a reference model. Do you want to replace it?',
  /** Ours: a hidden reference model leaves users with 'Unable to load reference model information.'. */
  hiddenReference: 'A hidden model cannot be the reference model. Unhide it first.',
  /** Ours: hiding the current reference model is refused for the same reason. */
  hideReferenceRefused: 'The reference model cannot be hidden. Set another model as the reference first.',
} as const;

/** 'Failed to load project: ...' */
export const loadProjectFailed = (detail: string): string => `Failed to load project: ${detail}`;
/** 'Failed to save project: ...' */
export const saveProjectFailed = (detail: string): string => `Failed to save project: ${detail}`;
/** Delete guard: 'Cannot delete this project because it has N associated models. Please delete these models first.' */
export const projectHasModels = (n: number): string =>
  `Cannot delete this project because it has ${n} associated models. Please delete these models first.`;
/** Ours (the CLI's `projects delete --with-models`): 'Project "{name}" and its N models have been deleted successfully.' */
export const projectDeletedWithModels = (name: string, models: number): string =>
  `Project "${name}" and its ${models} ${models === 1 ? 'model' : 'models'} have been deleted successfully.`;
/** 'Failed to delete project: {error message}' */
export const deleteProjectFailed = (detail: string): string => `Failed to delete project: ${detail}`;
/** 'Project "{name}" has been deleted successfully.' */
export const projectDeleted = (name: string): string => `Project "${name}" has been deleted successfully.`;

/** Admin grant. */
export const adminGrantFailed = (detail: string): string => `Error setting admin role: ${detail}`;
/** Ours: 'Set as Admin' for a UID without a `users/{uid}` record. */
export const noAccountWithUid = (uid: string): string => `No account with UID ${uid}.`;
/** Admin grant success: the user is set as admin and must log out and in again. */
export const adminGranted = (who: string): string =>
  `User ${who} has been set as admin. They must log out and log in again for the change to take effect.`;

/** Geolocation messages, keyed by GeolocationPositionError code (1, 2, 3). */
export const GeolocationMessages = {
  unsupported: 'Geolocation is not supported by this browser.',
  1: 'Location access denied by user.',
  2: 'Location information is unavailable.',
  3: 'Location request timed out.',
  generic: 'Unable to retrieve your location.',
} as const;

/**
 * The geolocation message for a `GeolocationPositionError` code.
 * @param code 1 (permission denied), 2 (position unavailable), 3 (timeout), anything else generic
 */
export function geolocationErrorMessage(code: number | undefined): string {
  if (code === 1 || code === 2 || code === 3) return GeolocationMessages[code];
  return GeolocationMessages.generic;
}

/** Compare mode. */
export const CompareMessages = { referenceUnavailable: 'Unable to load reference model information.' } as const;

function errorCodeOf(error: unknown): string | undefined {
  if (isAppError(error)) return error.code;
  if (typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string') {
    return (error as { code: string }).code;
  }
  return undefined;
}
