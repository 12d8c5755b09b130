import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ValidationReport } from '@shared/types.js';
import { FileChecks, formatBoundingBox, formatCameras, formatPhotos, NO_FILE_CHECKS_TEXT } from './file-checks.js';

afterEach(cleanup);

const report: ValidationReport = {
  version: 1,
  checkedAt: '2026-11-23T10:00:00.000Z',
  checker: 'catalog content checks 1, gltf-validator 2.0.0-dev.3.10',
  splat: {
    fileName: 'point_cloud.ply',
    size: 2_250_000,
    verdict: 'ok',
    problem: null,
    warnings: [],
    format: 'ply',
    encoding: 'binary_little_endian',
    gaussians: 9080,
    shDegree: 3,
    boundingBox: { min: [-409.664, -405.95, -291.891], max: [471.38, 336.55, 1003.631] },
  },
  glb: {
    fileName: 'Duck.glb',
    size: 120_000,
    verdict: 'warnings',
    problem: null,
    warnings: ['ACCESSOR_NON_UNIT: Accessor contains non-unit vectors.'],
    generator: 'COLLADA2GLTF',
    meshes: 1,
    triangles: 4212,
    vertices: 2399,
    materials: 1,
    textures: 1,
    extensions: ['KHR_draco_mesh_compression'],
    validatorVersion: '2.0.0-dev.3.10',
    issues: { errors: 0, warnings: 1, infos: 0, hints: 0 },
  },
  cameraMetadata: { fileName: 'cameras.json', size: 124_000, verdict: 'ok', problem: null, warnings: [], cameras: 304, withPhoto: 5 },
  photos: { count: 5, bytes: 2_290_000, verdict: 'ok', dimensions: [{ width: 531, height: 946, count: 5 }], refused: [] },
  notes: ['No web-sized copy was made: this backend cannot make one.'],
};

describe("FileChecks: a model's validation report", () => {
  it('formats counts, boxes, cameras and photo sizes', () => {
    expect(formatCameras(304, 5)).toBe('304 cameras, 5 with a photo');
    expect(formatCameras(1, 0)).toBe('1 camera, 0 with a photo');
    expect(formatCameras(12_000, 1_500)).toBe('12,000 cameras, 1,500 with a photo');
    expect(formatPhotos(5, [{ width: 531, height: 946, count: 5 }])).toBe('5 photos, 531 × 946');
    expect(
      formatPhotos(5, [
        { width: 531, height: 946, count: 4 },
        { width: 640, height: 480, count: 1 },
      ]),
    ).toBe('5 photos, 531 × 946 (4), 640 × 480 (1)');
    expect(formatPhotos(1, [])).toBe('1 photo');
    expect(formatBoundingBox({ min: [-409.664, 0, 1], max: [1.005, 2, 3] })).toBe('(-409.66, 0, 1) to (1, 2, 3)');
  });

  it('shows per file its verdict and facts, then the notes', () => {
    render(<FileChecks report={report} />);
    const panel = screen.getByRole('region', { name: 'File checks' });
    const splat = within(panel).getByTestId('file-check-splat');
    expect(within(splat).getByText('OK')).toBeTruthy();
    expect(within(splat).getByText('9,080')).toBeTruthy();
    expect(within(splat).getByText('PLY (binary_little_endian)')).toBeTruthy();
    expect(within(splat).getByText('(-409.66, -405.95, -291.89) to (471.38, 336.55, 1003.63)')).toBeTruthy();
    expect([...splat.querySelectorAll('dt')].map((dt) => dt.textContent)).toEqual(['Gaussians', 'SH degree', 'Format', 'Bounding box']);
    expect(splat.querySelectorAll('dd')[1]?.textContent).toBe('3');
    const glb = within(panel).getByTestId('file-check-glb');
    expect(within(glb).getByText('Warnings')).toBeTruthy();
    expect([...glb.querySelectorAll('dd')].map((dd) => dd.textContent)).toEqual([
      'COLLADA2GLTF',
      '1',
      '4,212',
      '1',
      'KHR_draco_mesh_compression',
      '1',
    ]);
    expect(within(glb).getByRole('list', { name: 'GLB warnings' }).textContent).toBe(
      'ACCESSOR_NON_UNIT: Accessor contains non-unit vectors.',
    );
    expect(within(panel).getByTestId('file-check-cameras').textContent).toContain('304 cameras, 5 with a photo');
    expect(within(panel).getByTestId('file-check-photos').textContent).toContain('5 photos, 531 × 946');
    expect(within(panel).getByRole('list', { name: 'Notes' }).textContent).toBe(
      'No web-sized copy was made: this backend cannot make one.',
    );
    expect(panel.textContent).toContain('catalog content checks 1, gltf-validator 2.0.0-dev.3.10');
  });

  it('names a refused file with its problem and no facts', () => {
    const refused: ValidationReport = {
      ...report,
      glb: null,
      cameraMetadata: null,
      photos: null,
      notes: [],
      splat: { ...report.splat!, verdict: 'refused', problem: 'This .ply is truncated (point_cloud.ply).' },
    };
    render(<FileChecks report={refused} />);
    const splat = screen.getByTestId('file-check-splat');
    expect(within(splat).getByText('Refused')).toBeTruthy();
    expect(within(splat).getByText('This .ply is truncated (point_cloud.ply).')).toBeTruthy();
    expect(splat.querySelector('dl')).toBeNull();
  });

  it("says 'No file checks stored for this model.' without a report; collapsible as a 'File checks' disclosure", () => {
    render(<FileChecks report={undefined} />);
    expect(screen.getByRole('region', { name: 'File checks' }).textContent).toContain(NO_FILE_CHECKS_TEXT);
    expect(NO_FILE_CHECKS_TEXT).toBe('No file checks stored for this model.');
    cleanup();
    render(<FileChecks report={report} collapsible />);
    const details = screen.getByTestId('file-checks');
    expect(details.tagName).toBe('DETAILS');
    expect((details as HTMLDetailsElement).open).toBe(false);
    expect(details.querySelector('summary')?.textContent).toBe('File checks');
  });
});
