import { describe, expect, it } from 'vitest';
import { AppError } from '@shared/errors.js';
import {
  assetPath,
  cameraMetadataPath,
  changeValuesPath,
  fileEntryType,
  fileNameOf,
  glbPath,
  imagePath,
  isDeletedByDeleteAll,
  isMainModelFile,
  modelFolder,
  modelSubfolderPath,
  parseChangeValuesPath,
  parseModelPath,
  sanitizeFileName,
  splatExtensionOf,
  splatPath,
  thumbnailPath,
  toFileEntry,
  validateModelFilePath,
  wantsWebGlbCopy,
  WEB_GLB_MIN_BYTES,
  webGlbPath,
  webGlbRefusal,
  webSplatPreviewPath,
} from '@shared/paths.js';

const uuid = '6f1c2a9e-0b7d-4c39-9a55-1e2f3a4b5c6d';

describe('storage paths (models/{uuid}/…)', () => {
  it('builds every path of a model folder', () => {
    expect(modelFolder(uuid)).toBe(`models/${uuid}`);
    expect(splatPath(uuid, 'ply')).toBe(`models/${uuid}/model.ply`);
    expect(splatPath(uuid, 'splat')).toBe(`models/${uuid}/model.splat`);
    expect(glbPath(uuid)).toBe(`models/${uuid}/model.glb`);
    expect(webGlbPath(uuid)).toBe(`models/${uuid}/model.web.glb`);
    expect(validateModelFilePath(webGlbPath(uuid))).toBe(`models/${uuid}/model.web.glb`);
    expect(webSplatPreviewPath(uuid)).toBe(`models/${uuid}/model.preview.spz`);
    expect(validateModelFilePath(webSplatPreviewPath(uuid))).toBe(`models/${uuid}/model.preview.spz`);
    expect(imagePath(uuid, 'IMG_0001.JPG')).toBe(`models/${uuid}/images/IMG_0001.JPG`);
    expect(thumbnailPath(uuid, 'thumb.jpg')).toBe(`models/${uuid}/images_thumbnails/thumb.jpg`);
    expect(assetPath(uuid, 'report.pdf')).toBe(`models/${uuid}/assets/report.pdf`);
    expect(cameraMetadataPath(uuid)).toBe(`models/${uuid}/camera-metadata.json`);
    expect(modelSubfolderPath(uuid, 'images_thumbnails')).toBe(`models/${uuid}/images_thumbnails`);
  });

  it("puts a change map's values in the capture's changes/ folder, named after the reference model", () => {
    const reference = '0a1b2c3d-0b7d-4c39-9a55-1e2f3a4b5c6d';
    const path = changeValuesPath(uuid, reference);
    expect(path).toBe(`models/${uuid}/changes/${reference}.bin`);
    expect(validateModelFilePath(path)).toBe(path);
    expect(parseChangeValuesPath(path)).toEqual({ uuid, referenceModelId: reference });
    expect(fileEntryType(path)).toBeNull(); // not a model file to list or delete one by one
    for (const other of [
      `models/${uuid}/changes/.bin`,
      `models/${uuid}/changes/a.txt`,
      `models/${uuid}/model.ply`,
      `models/${uuid}/changes/a/b.bin`,
    ]) {
      expect(parseChangeValuesPath(other), other).toBeNull();
    }
    expect(() => validateModelFilePath(`models/${uuid}/changes/notes.txt`)).toThrow(/changes\/ holds only change-map values/);
    expect(() => validateModelFilePath(`models/${uuid}/changes/.bin`)).toThrow(AppError);
    expect(() => validateModelFilePath(`models/${uuid}/changes/a..bin`)).toThrow(AppError);
    expect(() => changeValuesPath(uuid, '..')).toThrow(AppError);
    expect(() => changeValuesPath(uuid, ' ref')).toThrow(AppError);
    expect(() => changeValuesPath('../x', reference)).toThrow(AppError);
  });

  it('lower-cases the splat extension and accepts a file name or a dotted extension', () => {
    expect(splatPath(uuid, 'PLY')).toBe(`models/${uuid}/model.ply`);
    expect(splatPath(uuid, '.Splat')).toBe(`models/${uuid}/model.splat`);
    expect(splatPath(uuid, 'point_cloud.PLY')).toBe(`models/${uuid}/model.ply`);
    expect(splatExtensionOf('scene.glb')).toBeNull();
  });

  it('refuses other splat extensions and unsafe uuids', () => {
    expect(() => splatPath(uuid, 'glb')).toThrow(AppError);
    expect(() => modelFolder('')).toThrow(AppError);
    expect(() => modelFolder('../etc')).toThrow(AppError);
    expect(() => modelFolder('a/b')).toThrow(AppError);
    expect(() => glbPath('x\u0000')).toThrow(AppError);
  });
});

describe('file-name sanitising', () => {
  it("removes '/', '..' and control characters", () => {
    expect(sanitizeFileName('../../etc/passwd')).toBe('._._etc_passwd');
    expect(sanitizeFileName('a\\b.jpg')).toBe('a_b.jpg');
    expect(sanitizeFileName('photo\u0000\u001f\u007f.jpg')).toBe('photo.jpg');
    expect(sanitizeFileName('name..jpg')).toBe('name.jpg');
    expect(sanitizeFileName('  spaced name.png  ')).toBe('spaced name.png');
    for (const name of ['../../x', 'a/../b', '..\\..\\c']) {
      const safe = sanitizeFileName(name);
      expect(safe).not.toContain('/');
      expect(safe).not.toContain('..');
    }
  });

  it('returns empty for names with nothing usable, and the builders refuse them', () => {
    expect(sanitizeFileName('..')).toBe('');
    expect(sanitizeFileName('\u0001')).toBe('');
    expect(() => imagePath(uuid, '..')).toThrow(AppError);
    expect(() => assetPath(uuid, '')).toThrow(AppError);
  });

  it('keeps a sanitised name inside its folder', () => {
    expect(imagePath(uuid, '../../../secret.json')).toBe(`models/${uuid}/images/._._._secret.json`);
  });
});

describe('web-sized GLBs', () => {
  it('are made of GLBs of 8 MiB or more, and kept when at least 2× smaller', () => {
    expect(wantsWebGlbCopy(WEB_GLB_MIN_BYTES)).toBe(true);
    expect(wantsWebGlbCopy(WEB_GLB_MIN_BYTES - 1)).toBe(false);
    expect(wantsWebGlbCopy(null)).toBe(false);
    expect(webGlbRefusal(100_000_000, 50_000_000)).toBeNull();
    expect(webGlbRefusal(10_200_000, 7_900_000)).toBe('the copy would be 7.9 MB of 10.2 MB, not 2× smaller');
    expect(webGlbRefusal(1000, 0)).not.toBeNull();
  });
});

describe('fileEntryType (the type of a file entry)', () => {
  it.each([
    [`models/${uuid}/model.ply`, 'splat'],
    [`models/${uuid}/model.splat`, 'splat'],
    [`models/${uuid}/legacy-name.PLY`, 'splat'],
    [`models/${uuid}/model.glb`, 'glb'],
    [`models/${uuid}/model.web.glb`, 'glb'],
    [`models/${uuid}/model.preview.spz`, 'splat'],
    [`models/${uuid}/images/a.jpg`, 'image'],
    [`models/${uuid}/images_thumbnails/a.jpg`, 'thumbnail'],
    [`models/${uuid}/assets/report.pdf`, 'asset'],
    [`models/${uuid}/assets/nested/mesh.glb`, 'asset'],
    [`models/${uuid}/camera-metadata.json`, 'cameraMetadata'],
    [`/models/${uuid}/model.glb`, 'glb'],
  ])('%s → %s', (path, type) => {
    expect(fileEntryType(path)).toBe(type);
  });

  it.each([`models/${uuid}/notes.txt`, `models/${uuid}/images/`, `models/${uuid}`, 'other/x/model.glb', `models/${uuid}/other/a.jpg`])(
    '%s is not a file entry',
    (path) => {
      expect(fileEntryType(path)).toBeNull();
    },
  );

  it('builds entries, splits paths and knows which files are main files', () => {
    expect(toFileEntry(`models/${uuid}/model.glb`, 1664)).toEqual({ path: `models/${uuid}/model.glb`, type: 'glb', size: 1664 });
    expect(toFileEntry(`models/${uuid}/images/a.jpg`)).toEqual({ path: `models/${uuid}/images/a.jpg`, type: 'image' });
    expect(toFileEntry('elsewhere/a.jpg')).toBeNull();
    expect(parseModelPath(`models/${uuid}/images/a.jpg`)).toEqual({ uuid, rest: 'images/a.jpg' });
    expect(fileNameOf(`models/${uuid}/images/a.jpg`)).toBe('a.jpg');
    expect(isMainModelFile('splat')).toBe(true);
    expect(isMainModelFile('glb')).toBe(true);
    expect(isMainModelFile('image')).toBe(false);
    expect(['image', 'thumbnail', 'asset', 'cameraMetadata'].every((t) => isDeletedByDeleteAll(t as never))).toBe(true);
    expect(isDeletedByDeleteAll('splat')).toBe(false);
    expect(isDeletedByDeleteAll('glb')).toBe(false);
  });
});
