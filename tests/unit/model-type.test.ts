import { describe, expect, it } from 'vitest';
import {
  GLB_FILE_ACCEPT,
  MODEL_TYPE_OPTION_LABELS,
  SPLAT_FILE_ACCEPT,
  filesSatisfyModelType,
  isGlbFileName,
  isSplatFileName,
  modelKindLabel,
  modelKindLine,
  modelTypeLabel,
  totalFileSize,
} from '@shared/model-type.js';
import type { ModelType } from '@shared/types.js';

const splat = 'models/u/model.ply';
const glb = 'models/u/model.glb';

describe('type label (on project detail)', () => {
  it('shows the stored modelType', () => {
    expect(modelTypeLabel({ modelType: 'hybrid', files: {} })).toBe('Hybrid');
    expect(modelTypeLabel({ modelType: 'splat', files: { glbPath: glb } })).toBe('Splat');
    expect(modelTypeLabel({ modelType: 'mesh', files: {} })).toBe('Mesh');
  });

  it('else infers from the files: Hybrid, Splat, Mesh or Unknown', () => {
    expect(modelTypeLabel({ files: { splatPath: splat, glbPath: glb } })).toBe('Hybrid');
    expect(modelTypeLabel({ modelType: null, files: { splatPath: splat } })).toBe('Splat');
    expect(modelTypeLabel({ files: { glbPath: glb } })).toBe('Mesh');
    expect(modelTypeLabel({ files: {} })).toBe('Unknown');
    expect(modelTypeLabel({ modelType: 'pointcloud' as ModelType, files: { glbPath: glb } })).toBe('Mesh');
  });
});

describe('kind label (on the model list)', () => {
  it("'3D Gaussian Splat', else 'GLB Model', else 'No 3D file'", () => {
    expect(modelKindLabel({ files: { splatPath: splat, glbPath: glb } })).toBe('3D Gaussian Splat');
    expect(modelKindLabel({ files: { glbPath: glb } })).toBe('GLB Model');
    expect(modelKindLabel({ files: { splatPath: '' } })).toBe('No 3D file');
    expect(modelKindLabel({ files: {} })).toBe('No 3D file');
  });
});

describe('kind line of the model list', () => {
  it('names a hybrid as the project page does, and says nothing more for the other kinds', () => {
    expect(modelKindLine({ files: { splatPath: splat, glbPath: glb } })).toBe('3D Gaussian Splat · Hybrid');
    expect(modelKindLine({ modelType: 'hybrid', files: { glbPath: glb } })).toBe('GLB Model · Hybrid');
    expect(modelKindLine({ modelType: 'hybrid', files: {} })).toBe('No 3D file');
    expect(modelKindLine({ files: { splatPath: splat } })).toBe('3D Gaussian Splat');
    expect(modelKindLine({ modelType: 'mesh', files: { glbPath: glb } })).toBe('GLB Model');
  });
});

describe('add-model type rules (the model type decides which files are needed)', () => {
  it('labels the radio options', () => {
    expect(MODEL_TYPE_OPTION_LABELS).toEqual({ hybrid: 'Hybrid (Splat + Mesh)', splat: 'Splat Only', mesh: 'Mesh Only' });
  });

  it('splat needs a splat, mesh a glb, hybrid at least one', () => {
    expect(filesSatisfyModelType('splat', true, false)).toBe(true);
    expect(filesSatisfyModelType('splat', false, true)).toBe(false);
    expect(filesSatisfyModelType('mesh', false, true)).toBe(true);
    expect(filesSatisfyModelType('mesh', true, false)).toBe(false);
    expect(filesSatisfyModelType('hybrid', true, false)).toBe(true);
    expect(filesSatisfyModelType('hybrid', false, true)).toBe(true);
    expect(filesSatisfyModelType('hybrid', false, false)).toBe(false);
  });

  it('accepts .splat and .ply for the splat input and .glb for the GLB input', () => {
    expect(SPLAT_FILE_ACCEPT).toBe('.splat,.ply');
    expect(GLB_FILE_ACCEPT).toBe('.glb');
    expect(isSplatFileName('point_cloud.PLY')).toBe(true);
    expect(isSplatFileName('model.splat')).toBe(true);
    expect(isSplatFileName('model.glb')).toBe(false);
    expect(isGlbFileName('Duck.GLB')).toBe(true);
    expect(isGlbFileName('Duck.gltf')).toBe(false);
  });
});

describe('total file size (splatSize + glbSize, bytes)', () => {
  it('sums the sizes, missing ones counting 0', () => {
    expect(totalFileSize({ files: { splatSize: 2_253_369, glbSize: 120_484 } })).toBe(2_373_853);
    expect(totalFileSize({ files: { glbSize: 1664 } })).toBe(1664);
    expect(totalFileSize({ files: { splatSize: null, glbSize: Number.NaN } })).toBe(0);
  });
});
