import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCameraMetadata } from '@shared/camera-metadata.js';
import { validateCameraMetadataFiles } from '@shared/validation/camera.js';
import { samplePath } from '../support/paths.js';

const camerasFile = samplePath('3dgs-konstruct/cameras.json');
const hasSample = existsSync(camerasFile);

function camera(n: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: n,
    img_name: `frame_${String(n).padStart(5, '0')}`,
    width: 1062,
    height: 1893,
    position: [1, 2, 3],
    rotation: [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ],
    ...extra,
  };
}

const errorOf = (text: string) => {
  const result = parseCameraMetadata(text);
  if (result.ok) throw new Error('expected a failure');
  return result.message;
};

describe('parseCameraMetadata with the real cameras.json (304 cameras)', () => {
  it.skipIf(!hasSample)('accepts it, keeping extra keys (fx, fy)', () => {
    const result = parseCameraMetadata(readFileSync(camerasFile, 'utf8'));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.cameras).toHaveLength(304);
    expect(result.value).toBe(result.cameras);
    const first = result.cameras[0]!;
    expect(first.id).toBe(0);
    expect(first.img_name).toBe('frame_00001.jpg');
    expect([first.width, first.height]).toEqual([1062, 1893]);
    expect(first.position).toHaveLength(3);
    expect(first.rotation.map((row) => row.length)).toEqual([3, 3, 3]);
    expect(typeof first.fx).toBe('number');
    expect(typeof first.fy).toBe('number');
  });

  it.skipIf(!hasSample)('reports the broken cameras of a damaged copy by their 1-based number', () => {
    const cameras = JSON.parse(readFileSync(camerasFile, 'utf8')) as Record<string, unknown>[];
    cameras[0]!.id = '0';
    cameras[99]!.position = [1, 2];
    delete cameras[303]!.rotation;
    expect(errorOf(JSON.stringify(cameras))).toBe(
      'JSON format error: Camera 1: id must be a number; Camera 100: position must be an array of 3 numbers; Camera 304: rotation is required',
    );
  });

  it.skipIf(!hasSample)('refuses the real file cut short', () => {
    const text = readFileSync(camerasFile, 'utf8');
    expect(errorOf(text.slice(0, 5000))).toBe('Invalid JSON file');
  });
});

describe('parseCameraMetadata (the camera metadata upload messages)', () => {
  it("'Invalid JSON file' when the text is not JSON", () => {
    expect(errorOf('')).toBe('Invalid JSON file');
    expect(errorOf('{"id": 1,')).toBe('Invalid JSON file');
    expect(errorOf('version https://git-lfs.github.com/spec/v1')).toBe('Invalid JSON file');
  });

  it("'Metadata must be in array format' when it is not an array", () => {
    expect(errorOf(JSON.stringify(camera(1)))).toBe('Metadata must be in array format');
    expect(errorOf('"cameras"')).toBe('Metadata must be in array format');
    expect(errorOf('null')).toBe('Metadata must be in array format');
  });

  it("'At least one camera data is required' when the array is empty", () => {
    expect(errorOf('[]')).toBe('At least one camera data is required');
  });

  it("prefixes every problem with 'Camera N:' and combines them as 'JSON format error: ...'", () => {
    const first = camera(1);
    delete first.img_name;
    const cameras = [
      first,
      camera(2, { id: 'two', img_name: 7 }),
      camera(3, {
        rotation: [
          [1, 0, 0],
          [0, 1, 0],
        ],
      }),
      camera(4, { width: '1062', height: null }),
      'not a camera',
      camera(6, { position: [1, 2, 'z'] }),
      camera(7, {
        rotation: [
          [1, 0, 0],
          [0, 1, 0],
          [0, 0],
        ],
      }),
    ];
    expect(errorOf(JSON.stringify(cameras))).toBe(
      'JSON format error: ' +
        [
          'Camera 1: img_name is required',
          'Camera 2: id must be a number',
          'Camera 2: img_name must be a string',
          'Camera 3: rotation must be a 3x3 array of numbers',
          'Camera 4: width must be a number',
          'Camera 4: height must be a number',
          'Camera 5: must be an object',
          'Camera 6: position must be an array of 3 numbers',
          'Camera 7: rotation must be a 3x3 array of numbers',
        ].join('; '),
    );
  });

  it('accepts extra keys, img_name without an extension, and a byte-order mark', () => {
    const result = parseCameraMetadata(`\uFEFF${JSON.stringify([camera(0, { fx: 1400.5, note: 'x' })])}`);
    expect(result).toMatchObject({ ok: true });
    if (result.ok) expect(result.cameras[0]).toMatchObject({ img_name: 'frame_00000', fx: 1400.5, note: 'x' });
  });
});

describe('validateCameraMetadataFiles (exactly one .json file)', () => {
  it('accepts one .json file', () => {
    expect(validateCameraMetadataFiles([{ name: 'cameras.json' }])).toEqual({ ok: true, value: { name: 'cameras.json' } });
    expect(validateCameraMetadataFiles([{ name: 'CAMERAS.JSON' }]).ok).toBe(true);
  });

  it("'Only one JSON file can be uploaded for camera metadata'", () => {
    const message = 'Only one JSON file can be uploaded for camera metadata';
    expect(validateCameraMetadataFiles([{ name: 'a.json' }, { name: 'b.json' }])).toEqual({ ok: false, message });
    expect(validateCameraMetadataFiles([])).toEqual({ ok: false, message });
  });

  it("'Only JSON files are allowed for camera metadata'", () => {
    expect(validateCameraMetadataFiles([{ name: 'cameras.txt' }])).toEqual({
      ok: false,
      message: 'Only JSON files are allowed for camera metadata',
    });
    expect(validateCameraMetadataFiles([{ name: 'json' }]).ok).toBe(false);
  });
});
