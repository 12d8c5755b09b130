/**
 * Business constants and limits (screen sizes, upload thresholds, timings), one name each. Sizes
 * are in bytes, durations in milliseconds, lengths in CSS pixels unless the name says otherwise.
 */

const KB = 1024;
const MB = 1024 * KB;
const SECOND = 1000;
const MINUTE = 60 * SECOND;

// ---------------------------------------------------------------------------------------------
// Storage uploads
// ---------------------------------------------------------------------------------------------

/** Files larger than this (256 KB) use a resumable upload; smaller ones one multipart POST. */
export const RESUMABLE_UPLOAD_THRESHOLD_BYTES = 256 * KB;
/** First chunk size of a resumable upload (256 KB). */
export const UPLOAD_CHUNK_SIZE_START_BYTES = 256 * KB;
/** Chunk sizes double while the doubled size stays below this (32 MB, exclusive), so at most 16 MB. */
export const UPLOAD_CHUNK_SIZE_LIMIT_BYTES = 32 * MB;

/**
 * The next chunk size of a resumable upload after a successful chunk (starts at 256 KB and
 * doubles up to below 32 MB).
 * @param current the chunk size just used, in bytes
 * @returns `current * 2` when that is below 32 MB, else `current`
 */
export function nextUploadChunkSize(current: number): number {
  const doubled = current * 2;
  return doubled < UPLOAD_CHUNK_SIZE_LIMIT_BYTES ? doubled : current;
}

/** True when a file of `sizeBytes` is uploaded resumably (above 256 KB). */
export function usesResumableUpload(sizeBytes: number): boolean {
  return sizeBytes > RESUMABLE_UPLOAD_THRESHOLD_BYTES;
}

/**
 * Most files in one batch upload of small files (`FileStorePort.uploadBatch`, embedded backend
 * only; our own limit: one request instead of one per photo).
 */
export const UPLOAD_BATCH_MAX_FILES = 64;
/** Most bytes in one batch upload of small files (4 MB). */
export const UPLOAD_BATCH_MAX_BYTES = 4 * MB;

/** Storage listing page size bounds (maxResults 1 to 1000). */
export const STORAGE_LIST_MAX_RESULTS_MIN = 1;
export const STORAGE_LIST_MAX_RESULTS_MAX = 1000;

// ---------------------------------------------------------------------------------------------
// Screens
// ---------------------------------------------------------------------------------------------

/** Model list (/models): virtualised list height and row height, px. */
export const MODEL_LIST_HEIGHT_PX = 600;
export const MODEL_LIST_ROW_HEIGHT_PX = 120;

/** Landing page: 3 tool cards; 1/2/3 columns on small/medium/large screens; 3-line clamp. */
export const LANDING_TOOL_CARD_COUNT = 3;
export const LANDING_GRID_COLUMNS = { small: 1, medium: 2, large: 3 } as const;
export const LANDING_DESCRIPTION_CLAMP_LINES = 3;

/** Featured Projects: at most 4, from projects with at least 2 models. */
export const FEATURED_PROJECTS_MAX = 4;
export const FEATURED_PROJECTS_MIN_MODELS = 2;

/** Description preview cut: 120 characters, then '...'. */
export const DESCRIPTION_PREVIEW_LENGTH = 120;

/** Project badge thresholds: 2 or more models is multi-temporal, exactly 1 initial assessment. */
export const MULTI_TEMPORAL_MIN_MODELS = 2;
export const INITIAL_ASSESSMENT_MODELS = 1;

/** Files table: 25 per page, up to 5 page buttons, search above 10 files. */
export const FILES_TABLE_PAGE_SIZE = 25;
export const FILES_TABLE_MAX_PAGE_BUTTONS = 5;
/** The file search box appears when there are MORE than this many files. */
export const FILES_SEARCH_THRESHOLD = 10;

/** True when the files table shows its search box (more than 10 files). */
export function showsFileSearch(fileCount: number): boolean {
  return fileCount > FILES_SEARCH_THRESHOLD;
}

/** Camera metadata upload: the UI states a 10MB limit, which is not enforced. */
export const CAMERA_METADATA_LIMIT_TEXT = '10MB';
export const CAMERA_METADATA_LIMIT_BYTES = 10 * MB;
/** Required fields named by the camera-metadata upload UI. */
export const CAMERA_METADATA_REQUIRED_FIELDS = ['id', 'img_name', 'position', 'rotation'] as const;

/** Password minimum length for registration. Also the identity service's default policy. */
export const PASSWORD_MIN_LENGTH = 6;

/** Registration signs the admin out after 2 s. */
export const REGISTRATION_SIGN_OUT_DELAY_MS = 2 * SECOND;
/** Additional-file upload status goes back to 'preparing' 3 s after 'completed'. */
export const ADDITIONAL_UPLOAD_STATUS_RESET_MS = 3 * SECOND;

/** New model defaults. */
export const DEFAULT_DISPLAY_ORDER = 0;
export const DEFAULT_ANNOTATIONS_COUNT = 0;

/** Shell navigation width, px. */
export const NAV_WIDTH_EXPANDED_PX = 256;
export const NAV_WIDTH_COLLAPSED_PX = 64;

/** Project management panel grid: 4 columns, list 1, detail 3. */
export const PROJECT_PANEL_GRID = { columns: 4, list: 1, detail: 3 } as const;

/** Admin content minimum height, px. */
export const ADMIN_CONTENT_MIN_HEIGHT_PX = 600;

/** Default sort keys of the management lists. */
export const MODEL_MANAGEMENT_DEFAULT_SORT = 'id';
export const PROJECT_MANAGEMENT_DEFAULT_SORT = 'id';

// ---------------------------------------------------------------------------------------------
// Map and geolocation (project map, project detail)
// ---------------------------------------------------------------------------------------------

/** Default map centre (a fixed point around 43.47, -80.54), decimal degrees. */
export const MAP_DEFAULT_CENTER = { lat: 43.4643, lng: -80.5204 } as const;
/** Map zoom without and with the user's location. */
export const MAP_DEFAULT_ZOOM = 10;
export const MAP_USER_LOCATION_ZOOM = 12;
/** Maps initialisation polls every 500 ms and gives up after 10 s. */
export const MAP_INIT_POLL_INTERVAL_MS = 500;
export const MAP_INIT_TIMEOUT_MS = 10 * SECOND;
/** Embedded map on project detail: zoom 14, 200 px high. */
export const MAP_EMBED_ZOOM = 14;
export const MAP_EMBED_HEIGHT_PX = 200;
/** Marker colours: blue multi-temporal, green initial assessment, red current location. */
export const MARKER_COLORS = { multiTemporal: 'blue', initialAssessment: 'green', currentLocation: 'red' } as const;

/** Browser geolocation options: high accuracy, 10 s timeout, cached position up to 10 minutes old. */
export const GEOLOCATION_OPTIONS = {
  enableHighAccuracy: true,
  timeout: 10 * SECOND,
  maximumAge: 10 * MINUTE,
} as const;

// ---------------------------------------------------------------------------------------------
// Identity service timings
// ---------------------------------------------------------------------------------------------

/** Tokens are refreshed in the background about 5 minutes before they expire. */
export const TOKEN_REFRESH_BEFORE_EXPIRY_MS = 5 * MINUTE;
/** A token is treated as expired 30 s before its expiry. */
export const TOKEN_EXPIRY_BUFFER_MS = 30 * SECOND;
/** After a network failure the refresh retries with a back-off from 30 s, doubling up to 16 minutes. */
export const TOKEN_REFRESH_RETRY_MIN_MS = 30 * SECOND;
export const TOKEN_REFRESH_RETRY_MAX_MS = 16 * MINUTE;
/** Identity network timeouts: 30 s on desktop, 60 s on mobile. */
export const IDENTITY_NETWORK_TIMEOUT_DESKTOP_MS = 30 * SECOND;
export const IDENTITY_NETWORK_TIMEOUT_MOBILE_MS = 60 * SECOND;

/**
 * The next token-refresh retry delay after a network failure.
 * @param previousMs the delay used last time, or undefined/0 for the first failure
 * @returns 30 s for the first failure, then double the previous delay, capped at 16 minutes
 */
export function nextTokenRefreshBackoff(previousMs?: number): number {
  if (previousMs === undefined || !(previousMs > 0)) return TOKEN_REFRESH_RETRY_MIN_MS;
  return Math.min(Math.max(previousMs * 2, TOKEN_REFRESH_RETRY_MIN_MS), TOKEN_REFRESH_RETRY_MAX_MS);
}

/**
 * A capture of more Gaussians than this is a large capture: its web copy gets a preview (shown
 * first, after a small part of the bytes) and the viewer draws it through a level-of-detail tree.
 * Below it, a whole web copy downloads in seconds and draws at interactive rates, and neither
 * pays for itself.
 */
export const LARGE_CAPTURE_GAUSSIANS = 400_000;
