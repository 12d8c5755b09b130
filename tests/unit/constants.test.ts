import { describe, expect, it } from 'vitest';
import * as C from '@shared/constants.js';

describe('business constants and limits', () => {
  it('uploads: 256 KB threshold, chunks from 256 KB doubling below 32 MB', () => {
    expect(C.RESUMABLE_UPLOAD_THRESHOLD_BYTES).toBe(262_144);
    expect(C.usesResumableUpload(262_144)).toBe(false);
    expect(C.usesResumableUpload(262_145)).toBe(true);
    const sizes = [C.UPLOAD_CHUNK_SIZE_START_BYTES];
    for (let i = 0; i < 10; i++) sizes.push(C.nextUploadChunkSize(sizes.at(-1)!));
    expect(sizes[0]).toBe(256 * 1024);
    expect(Math.max(...sizes)).toBe(16 * 1024 * 1024);
    expect(Math.max(...sizes)).toBeLessThan(C.UPLOAD_CHUNK_SIZE_LIMIT_BYTES);
    expect(C.UPLOAD_CHUNK_SIZE_LIMIT_BYTES).toBe(32 * 1024 * 1024);
    expect([C.STORAGE_LIST_MAX_RESULTS_MIN, C.STORAGE_LIST_MAX_RESULTS_MAX]).toEqual([1, 1000]);
  });

  it('screens', () => {
    expect([C.MODEL_LIST_HEIGHT_PX, C.MODEL_LIST_ROW_HEIGHT_PX]).toEqual([600, 120]);
    expect(C.LANDING_TOOL_CARD_COUNT).toBe(3);
    expect(C.LANDING_GRID_COLUMNS).toEqual({ small: 1, medium: 2, large: 3 });
    expect(C.LANDING_DESCRIPTION_CLAMP_LINES).toBe(3);
    expect([C.FEATURED_PROJECTS_MAX, C.FEATURED_PROJECTS_MIN_MODELS]).toEqual([4, 2]);
    expect(C.DESCRIPTION_PREVIEW_LENGTH).toBe(120);
    expect([C.MULTI_TEMPORAL_MIN_MODELS, C.INITIAL_ASSESSMENT_MODELS]).toEqual([2, 1]);
    expect([C.FILES_TABLE_PAGE_SIZE, C.FILES_TABLE_MAX_PAGE_BUTTONS, C.FILES_SEARCH_THRESHOLD]).toEqual([25, 5, 10]);
    expect([C.showsFileSearch(10), C.showsFileSearch(11)]).toEqual([false, true]);
    expect([C.CAMERA_METADATA_LIMIT_TEXT, C.CAMERA_METADATA_LIMIT_BYTES]).toEqual(['10MB', 10 * 1024 * 1024]);
    expect(C.CAMERA_METADATA_REQUIRED_FIELDS).toEqual(['id', 'img_name', 'position', 'rotation']);
    expect(C.PASSWORD_MIN_LENGTH).toBe(6);
    expect([C.REGISTRATION_SIGN_OUT_DELAY_MS, C.ADDITIONAL_UPLOAD_STATUS_RESET_MS]).toEqual([2000, 3000]);
    expect([C.DEFAULT_DISPLAY_ORDER, C.DEFAULT_ANNOTATIONS_COUNT]).toEqual([0, 0]);
    expect([C.NAV_WIDTH_EXPANDED_PX, C.NAV_WIDTH_COLLAPSED_PX]).toEqual([256, 64]);
    expect(C.PROJECT_PANEL_GRID).toEqual({ columns: 4, list: 1, detail: 3 });
    expect(C.ADMIN_CONTENT_MIN_HEIGHT_PX).toBe(600);
  });

  it('map and geolocation', () => {
    expect(C.MAP_DEFAULT_CENTER).toEqual({ lat: 43.4643, lng: -80.5204 });
    expect([C.MAP_DEFAULT_ZOOM, C.MAP_USER_LOCATION_ZOOM]).toEqual([10, 12]);
    expect([C.MAP_INIT_POLL_INTERVAL_MS, C.MAP_INIT_TIMEOUT_MS]).toEqual([500, 10_000]);
    expect([C.MAP_EMBED_ZOOM, C.MAP_EMBED_HEIGHT_PX]).toEqual([14, 200]);
    expect(C.MARKER_COLORS).toEqual({ multiTemporal: 'blue', initialAssessment: 'green', currentLocation: 'red' });
    expect(C.GEOLOCATION_OPTIONS).toEqual({ enableHighAccuracy: true, timeout: 10000, maximumAge: 600000 });
  });

  it('identity timings: refresh 5 min early, back-off 30 s doubling to 16 min', () => {
    expect(C.TOKEN_REFRESH_BEFORE_EXPIRY_MS).toBe(300_000);
    expect(C.TOKEN_EXPIRY_BUFFER_MS).toBe(30_000);
    expect([C.IDENTITY_NETWORK_TIMEOUT_DESKTOP_MS, C.IDENTITY_NETWORK_TIMEOUT_MOBILE_MS]).toEqual([30_000, 60_000]);
    const delays: number[] = [];
    let d: number | undefined;
    for (let i = 0; i < 8; i++) delays.push((d = C.nextTokenRefreshBackoff(d)));
    expect(delays.map((ms) => ms / 1000)).toEqual([30, 60, 120, 240, 480, 960, 960, 960]);
  });
});
