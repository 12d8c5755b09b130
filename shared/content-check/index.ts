/**
 * One content check for every upload path (the portal before upload, the CLI, the embedded
 * server before it records a file): each model file is checked for what its name declares, in
 * one streaming pass where the format allows, and the facts found make the model's validation
 * report (`ValidationReport`, shared/types.ts).
 *
 * - splat: `.ply` (3DGS) and `.splat` ({@link checkPly}, {@link checkSplatFile});
 * - GLB: the Khronos glTF validator ({@link checkGlb});
 * - camera metadata: the camera-metadata rules with their user-facing messages (`parseCameraMetadata`), and how
 *   many cameras have a photo;
 * - photos and thumbnails: a real, decodable image of a photo type, named with its extension,
 *   within the pixel limit ({@link checkImage});
 * - the web-sized splat `model.spz`: SPZ in a gzip stream, its size what its header declares ({@link checkSpz}).
 *
 * Pure TypeScript over {@link ByteSource}s: a `Blob` in the browser, a file on disk in Node
 * (`cli/src/lib/byte-source.ts`), bytes on the server.
 */
import pLimit from 'p-limit';
import { matchCameraImages } from '../camera-poses.js';
import { parseCameraMetadata } from '../camera-metadata.js';
import { AppError, ErrorCode } from '../errors.js';
import {
  CAMERA_METADATA_FILE_NAME,
  MODEL_FILE_BASE_NAME,
  parseModelPath,
  WEB_GLB_FILE_NAME,
  WEB_SPLAT_FILE_NAME,
  WEB_SPLAT_PREVIEW_FILE_NAME,
} from '../paths.js';
import type { CameraMetadataCheck, GlbCheck, PhotosCheck, SplatCheck, ValidationReport } from '../types.js';
import type { ByteSource } from './byte-source.js';
import { acceptedFacts, readAll, refusedFacts } from './byte-source.js';
import { checkGlb, gltfValidatorVersion } from './glb.js';
import type { ImageCheck, ImageDecoder } from './image.js';
import { checkImage, IMAGE_TYPES } from './image.js';
import { contentMessage, dotExtension, formatMiB } from './messages.js';
import { checkPly } from './ply.js';
import { checkSplatFile } from './splat-file.js';
import type { SplatCheckOptions } from './splat-scan.js';
import { checkSpz } from './spz.js';
import type { SpzCheck } from './spz.js';

export type { ByteSource } from './byte-source.js';
export { blobSource, bytesSource, readAll, readChunks } from './byte-source.js';
export type { ImageCheck, ImageDecoder } from './image.js';
export type { SplatCheckOptions } from './splat-scan.js';
export { assertImagePixels, checkImage, IMAGE_MAX_PIXELS, IMAGE_TYPES, readImageSize } from './image.js';
export type { SpzCheck } from './spz.js';
export { checkSpz, SPZ_MAGIC, SPZ_VERSIONS, spzInflatedBytes } from './spz.js';
export { checkGlb, GLB_VALIDATOR_MAX_BYTES } from './glb.js';
export { checkPly } from './ply.js';
export { checkSplatFile, SPLAT_RECORD_BYTES } from './splat-file.js';
export {
  GAUSSIAN_PROPERTIES,
  parsePlyHeader,
  PLY_MAX_ELEMENT_COUNT,
  PlyHeaderError,
  shDegreeOf,
  TRAINING_PLY_PROPERTIES,
} from './ply-header.js';
export { describeContent, isLfsPointer } from './sniff.js';

/** Version of the checks and of the report format (bumped when either changes). */
export const CONTENT_CHECKS_VERSION = 1;

/** Photos checked at once. */
const IMAGE_CHECK_CONCURRENCY = 4;

/** What a file is checked as. */
export type ContentKind = 'splat' | 'glb' | 'cameraMetadata' | 'image' | 'spz';

/** Platform help for the checks. */
export interface ContentCheckOptions extends SplatCheckOptions {
  /** Full decode of photos (sharp in Node, createImageBitmap in the browser); header only without it. */
  decodeImage?: ImageDecoder;
}

/**
 * The check a file name calls for: `.ply`/`.splat` → 'splat', `.glb` → 'glb', `.json` →
 * 'cameraMetadata', a photo extension ({@link IMAGE_TYPES}) → 'image', `.spz` → 'spz'.
 * @returns the kind, or null (not checked: assets)
 */
export function contentKindOfName(fileName: string): ContentKind | null {
  const ext = dotExtension(fileName);
  if (ext === '.ply' || ext === '.splat') return 'splat';
  if (ext === '.glb') return 'glb';
  if (ext === '.json') return 'cameraMetadata';
  if (ext === '.spz') return 'spz';
  return Object.hasOwn(IMAGE_TYPES, ext) ? 'image' : null;
}

/**
 * The check a storage path calls for: `models/{uuid}/model.ply|.splat` →
 * 'splat', `model.glb` and its web-sized copy `model.web.glb` → 'glb', `camera-metadata.json` →
 * 'cameraMetadata', the web-sized copy `model.spz` and its preview `model.preview.spz` → 'spz', any file in `images/` or `images_thumbnails/` → 'image' (whatever its
 * name: a name that is not a photo's is refused by the check). Assets are not checked.
 * @returns the kind, or null
 */
export function contentKindOfPath(path: string): ContentKind | null {
  const parsed = parseModelPath(path);
  if (parsed === null) return null;
  const { rest } = parsed;
  if (rest === `${MODEL_FILE_BASE_NAME}.ply` || rest === `${MODEL_FILE_BASE_NAME}.splat`) return 'splat';
  if (rest === `${MODEL_FILE_BASE_NAME}.glb` || rest === WEB_GLB_FILE_NAME) return 'glb';
  if (rest === CAMERA_METADATA_FILE_NAME) return 'cameraMetadata';
  if (rest === WEB_SPLAT_FILE_NAME || rest === WEB_SPLAT_PREVIEW_FILE_NAME) return 'spz';
  if (/^(images|images_thumbnails)\/[^/]+$/.test(rest)) return 'image';
  return null;
}

/**
 * Checks a splat file, as `.splat` when its name says so, else as a 3DGS `.ply` (`options.scanData`: see SplatCheckOptions).
 * @throws only when the source cannot be read
 */
export function checkSplat(source: ByteSource, options: SplatCheckOptions = {}): Promise<SplatCheck> {
  return dotExtension(source.name) === '.splat' ? checkSplatFile(source, options) : checkPly(source, options);
}

/**
 * Largest camera-metadata file accepted (32 MiB): it is parsed whole as JSON, and a camera entry
 * is about 350 bytes, so this is about 90,000 cameras, far more than a drone survey's photos.
 */
export const CAMERA_METADATA_MAX_BYTES = 32 * 1024 * 1024;

/**
 * Checks camera metadata (its user-facing message as the problem) and counts the cameras
 * whose photo is among `imageNames`.
 * @param source the JSON file
 * @param imageNames the model's photos (file names or storage paths)
 * @throws only when the source cannot be read
 */
export async function checkCameraMetadata(source: ByteSource, imageNames: readonly string[] = []): Promise<CameraMetadataCheck> {
  if (source.size > CAMERA_METADATA_MAX_BYTES) {
    const what = `is ${formatMiB(source.size)}: camera metadata can be at most ${formatMiB(CAMERA_METADATA_MAX_BYTES)} (about 90,000 cameras)`;
    return { ...refusedFacts(source, contentMessage(source.name, what)), cameras: 0, withPhoto: 0 };
  }
  const parsed = parseCameraMetadata(new TextDecoder().decode(await readAll(source)));
  if (!parsed.ok) return { ...refusedFacts(source, parsed.message), cameras: 0, withPhoto: 0 };
  const withPhoto = matchCameraImages(parsed.value, imageNames).filter((m) => m.imagePath !== null).length;
  return { ...acceptedFacts(source), cameras: parsed.value.length, withPhoto };
}

/**
 * Checks one file as `kind`.
 * @param kind what the file is uploaded as
 * @param source the file
 * @param options platform help
 * @returns the check (see each checker); never throws for bad content
 */
export async function checkContent(
  kind: ContentKind,
  source: ByteSource,
  options: ContentCheckOptions = {},
): Promise<SplatCheck | GlbCheck | CameraMetadataCheck | ImageCheck | SpzCheck> {
  switch (kind) {
    case 'splat':
      return checkSplat(source, options);
    case 'glb':
      return checkGlb(source);
    case 'cameraMetadata':
      return checkCameraMetadata(source);
    case 'image':
      return checkImage(source, options);
    case 'spz':
      return checkSpz(source);
  }
}

/** The outcome of {@link checkStoredContent}: what the path calls for and what the check found. */
export interface StoredContentCheck {
  /** What the path calls for ({@link contentKindOfPath}). */
  kind: ContentKind;
  /** The check's facts; `verdict` 'refused' with its `problem` when the file may not be stored. */
  check: SplatCheck | GlbCheck | CameraMetadataCheck | ImageCheck | SpzCheck;
}

/**
 * The check a file store runs on a file at a storage path (before it records it, or, on
 * Firebase, after Cloud Storage stored it): the check its path calls for
 * ({@link contentKindOfPath}), on what a refusal depends on (`scanData: false`: a splat's header
 * and size; photos decoded only when `options.decodeImage` is given; a web-sized copy inflated in
 * a stream to compare its size with its header).
 * @param path the storage path (its name is the declared type)
 * @param source the stored or received bytes
 * @param options platform help
 * @returns the kind and the check, or null for a path that calls for no check (assets, paths
 *   outside a model folder)
 * @throws only when the source cannot be read
 */
export async function checkStoredContent(
  path: string,
  source: ByteSource,
  options: ContentCheckOptions = {},
): Promise<StoredContentCheck | null> {
  const kind = contentKindOfPath(path);
  if (kind === null) return null;
  return { kind, check: await checkContent(kind, source, { ...options, scanData: false }) };
}

/**
 * The check a file store runs before it records a file (the embedded server, the in-memory
 * backend): {@link checkStoredContent}, throwing when the file is refused. Paths that call for no
 * check (assets) pass.
 * @param path the storage path the file is about to be stored at (its name is the declared type)
 * @param source the received bytes
 * @param options platform help
 * @throws AppError `invalid-argument` whose message is the check's problem (context `{path}`)
 */
export async function assertStoredContent(path: string, source: ByteSource, options: ContentCheckOptions = {}): Promise<void> {
  const stored = await checkStoredContent(path, source, options);
  if (stored?.check.verdict === 'refused') {
    throw new AppError(ErrorCode.InvalidArgument, stored.check.problem ?? contentMessage(source.name, 'was refused'), {
      context: { path },
    });
  }
}

/** A model's files to check together. */
export interface ModelContentFiles {
  splat?: ByteSource | null;
  glb?: ByteSource | null;
  cameraMetadata?: ByteSource | null;
  images?: readonly ByteSource[];
  /** Thumbnails given with the model (checked as photos; not part of the report). */
  thumbnails?: readonly ByteSource[];
}

/** The outcome of {@link checkModelContent}. */
export interface ModelContentResult {
  report: ValidationReport;
  /** Every refused file's problem, in the order splat, GLB, camera metadata, photos, thumbnails. */
  problems: string[];
  /** Each photo's check, in input order. */
  images: ImageCheck[];
  /** Each thumbnail's check, in input order. */
  thumbnails: ImageCheck[];
}

/** The photos part of a report from each photo's check. */
export function photosReport(images: readonly ImageCheck[]): PhotosCheck | null {
  if (images.length === 0) return null;
  const sizes = new Map<string, { width: number; height: number; count: number }>();
  for (const image of images) {
    if (image.verdict === 'refused') continue;
    const key = `${image.width}x${image.height}`;
    const entry = sizes.get(key) ?? { width: image.width, height: image.height, count: 0 };
    entry.count += 1;
    sizes.set(key, entry);
  }
  const refused = images.filter((i) => i.verdict === 'refused').map((i) => ({ fileName: i.fileName, problem: i.problem ?? '' }));
  return {
    count: images.length,
    bytes: images.reduce((n, i) => n + i.size, 0),
    verdict: refused.length > 0 ? 'refused' : 'ok',
    dimensions: [...sizes.values()].sort((a, b) => b.count - a.count || b.width * b.height - a.width * a.height),
    refused,
  };
}

/**
 * Checks every file of a model and builds its validation report.
 * @param files the model's files (any may be missing)
 * @param options platform help; `checkedAt` (default now) for the report
 * @returns the report, every problem (empty when all files are accepted) and each photo's check
 * @throws only when a source cannot be read
 */
export async function checkModelContent(
  files: ModelContentFiles,
  options: ContentCheckOptions & { checkedAt?: string } = {},
): Promise<ModelContentResult> {
  const limit = pLimit(IMAGE_CHECK_CONCURRENCY);
  const imageSources = files.images ?? [];
  const [splat, glb, images, thumbnails] = await Promise.all([
    files.splat ? checkSplat(files.splat) : null,
    files.glb ? checkGlb(files.glb) : null,
    Promise.all(imageSources.map((source) => limit(() => checkImage(source, options)))),
    Promise.all((files.thumbnails ?? []).map((source) => limit(() => checkImage(source, options)))),
  ]);
  const cameraMetadata = files.cameraMetadata
    ? await checkCameraMetadata(
        files.cameraMetadata,
        imageSources.map((s) => s.name),
      )
    : null;
  const problems = [splat, glb, cameraMetadata, ...images, ...thumbnails]
    .filter((c): c is NonNullable<typeof c> => c !== null && c.verdict === 'refused')
    .map((c) => c.problem ?? '');
  const report: ValidationReport = {
    version: CONTENT_CHECKS_VERSION,
    checkedAt: options.checkedAt ?? new Date().toISOString(),
    checker: await checkerName(glb !== null),
    splat,
    glb,
    cameraMetadata,
    photos: photosReport(images),
    notes: [],
  };
  return { report, problems, images, thumbnails };
}

/** 'catalog content checks 1' plus gltf-validator's version when a GLB was checked. */
async function checkerName(withGlb: boolean): Promise<string> {
  const base = `catalog content checks ${CONTENT_CHECKS_VERSION}`;
  return withGlb ? `${base}, gltf-validator ${await gltfValidatorVersion()}` : base;
}
