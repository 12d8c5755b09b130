/**
 * The demo catalog that `catalog seed` creates: sign-ins, projects, and per model which
 * structure its files show, which files it gets and the findings seeded on it.
 */
import type { Vec3 } from '@shared/vec3.js';
import type { CameraOptions } from './cameras.js';
import { CAPTURE_FLIGHT } from './changed-capture.js';
import type { RGB } from './colour.js';
import type { DemoFinding } from './findings.js';
import type { SplatOptions } from './splat-writer.js';

/** Demo sign-ins: the accounts `catalog seed` creates, one admin and one user. */
export const DEMO_ACCOUNTS = [
  { email: 'admin@demo.lab', password: 'demo-admin-1', role: 'admin' },
  { email: 'user@demo.lab', password: 'demo-user-1', role: 'user' },
] as const;

/** A demo project and the models seeded into it. */
export interface DemoProject {
  name: string;
  structure_id: string;
  description: string;
  address?: string;
  lat?: number;
  lng?: number;
  models: DemoModel[];
}

/** A demo model: which structure, and which generated files it gets. */
export interface DemoModel {
  publicId: string;
  name: string;
  modelType: 'hybrid' | 'splat' | 'mesh';
  captureDate: string;
  reference: boolean;
  hidden: boolean;
  /** The structure its files show. */
  structure: 'tower' | 'bridge';
  /** Which files to generate: the splat (tower only), the GLB, and the drone flight (camera metadata plus one photo a camera). */
  files: { splat: boolean; glb: boolean; flight?: CameraOptions; photos?: number };
  /** Gaussians of the splat (default 3600). */
  splatCount?: number;
  /**
   * The splat is the changed second capture of the tower (`makeChangedPair`: one brace bent, one
   * antenna panel gone, a cabinet added, 1 cm noise, a 0.5° misregistration) with these options,
   * instead of a survey of the tower; its change map against the project's reference is stored
   * by `catalog seed`.
   */
  changedPair?: { count: number; captureCount: number; seed: number };
  /** Tower details of this survey (rust, extra antennas, a twisted sector, floaters). */
  survey?: Omit<SplatOptions, 'count' | 'seed' | 'tint'>;
  seed: number;
  tint: RGB;
  /** The model's scale, `metadata.unitsPerMetre` (the demo structures are in metres: 1). */
  unitsPerMetre?: number;
  /** Findings seeded on it, in order: F-1, F-2… */
  findings?: DemoFinding[];
}

/**
 * Gaussians of the tower's reference survey (TWR-001-2024-05) and of its changed capture
 * (TWR-001-2025-09): about 12 MB a PLY. Fewer leave the change map without the removed antenna
 * panel (about 0.15 % of the tower's Gaussians, under the 50 a change region needs at 20,000) or
 * with false regions (a 3,600-Gaussian tower finds no change at all).
 */
export const DEMO_REFERENCE_GAUSSIANS = 50_000;

/** The tower's leg half-width at height `y` (y-up, metres; the default 40 m tower of `towerParts`). */
const towerHalf = (y: number) => 3.5 - 2.5 * (y / 40);
/** A point on the third antenna sector, `twist` degrees off its 270° design azimuth, 1.6 m above the platform. */
const sectorThree = (twist: number): Vec3 => {
  const azimuth = ((270 + twist) * Math.PI) / 180;
  const reach = towerHalf(36) + 1 + 0.25 + 0.14;
  return [Math.cos(azimuth) * reach, 36 + 1.6, Math.sin(azimuth) * reach];
};
/** The lower leg joint of the tower at the first panel level (8 m), on the +x +z leg. */
const LOWER_JOINT: Vec3 = [towerHalf(8), 8, towerHalf(8)];

/**
 * The demo catalog: 'North Ridge Telecom Tower' (TWR-001, located, three visible models, the
 * oldest one the reference, plus one hidden draft for the admin view), 'Grand River Footbridge'
 * (BRG-002, located, one mesh model) and 'Harbour Light Mast' (MST-003, no location, no models).
 * - TWR-001-2024-05: hybrid (tower splat of `towerGaussians` + tower GLB, aligned), a
 *   20-camera spiral flight with its photos;
 * - TWR-001-2025-06: splat, a 12-camera ring flight with photos (img_name without extension), more
 *   rust at the lower joints, a third panel per sector and the third sector twisted by 8°;
 * - TWR-001-DRAFT (hidden): a noisy splat with floaters, no photos;
 * - TWR-001-2025-09: splat, the changed second capture of the tower (a brace bent 0.30 m, an
 *   antenna panel gone, an equipment cabinet added), a 16-camera spiral flight with its photos
 *   (in the capture's own frame: the cameras tell the change map which side of each surface is
 *   outside); its change map is seeded;
 * - BRG-002-2025-04: mesh (footbridge GLB) and one photo of it.
 * @param towerGaussians Gaussians of each of the three tower captures above (the reference survey,
 *   the June survey and the changed capture); fewer draw faster where WebGL runs in software, but
 *   below about 35,000 the changed capture's removed panel is too few Gaussians to be a change region
 * @returns the projects with their models, in seeding order
 */
export function demoProjects(towerGaussians: number = DEMO_REFERENCE_GAUSSIANS): DemoProject[] {
  return [
    {
      name: 'North Ridge Telecom Tower',
      structure_id: 'TWR-001',
      description:
        '45 m self-supporting lattice telecom tower on North Ridge. Surveyed by drone in 2024 and 2025 to follow bolt corrosion on the lower sections and antenna mount alignment.',
      address: 'North Ridge Road, Waterloo, ON',
      lat: 43.4723,
      lng: -80.5449,
      models: [
        {
          publicId: 'TWR-001-2024-05',
          name: 'North Ridge Tower, May 2024 survey',
          modelType: 'hybrid',
          captureDate: '2024-05-14',
          reference: true,
          hidden: false,
          structure: 'tower',
          files: { splat: true, glb: true, flight: { count: 20, layout: 'spiral', radius: 22, heights: [8, 44], turns: 2 } },
          // dense enough for the change map of TWR-001-2025-09 against it: the removed antenna panel
          // must hold more Gaussians than a change region's least (50); 77 of them at 50,000
          splatCount: towerGaussians,
          survey: { rust: 0.15 },
          seed: 11,
          tint: [0.85, 0.2, 0.2],
          unitsPerMetre: 1,
          findings: [
            {
              title: 'Bolt corrosion at lower leg joint',
              note: 'Surface rust on the bolted splice of the north-east leg at the first panel level. Clean and re-coat.',
              category: 'corrosion',
              severity: 3,
              status: 'open',
              points: [LOWER_JOINT],
            },
            {
              title: 'Leg spacing at the base',
              note: 'Footing to footing on the north face, for the foundation survey.',
              category: 'other',
              severity: 1,
              status: 'dismissed',
              points: [
                [towerHalf(0), 0.45, towerHalf(0)],
                [-towerHalf(0), 0.45, towerHalf(0)],
              ],
            },
          ],
        },
        {
          publicId: 'TWR-001-2025-06',
          name: 'North Ridge Tower, June 2025 survey',
          modelType: 'splat',
          captureDate: '2025-06-02',
          reference: false,
          hidden: false,
          structure: 'tower',
          files: {
            splat: true,
            glb: false,
            flight: { count: 12, layout: 'ring', radius: 38, heights: [20, 20], lookDown: -5, fovY: 60, extension: false, start: 5 },
          },
          // as dense as the reference: a capture much sparser than its reference leaves gaps between
          // its splats that its change map reads as removals (14 false regions at 3,600 against 50,000)
          splatCount: towerGaussians,
          survey: { rust: 0.55, antennaPanels: 3, sectorTwist: 8 },
          seed: 12,
          tint: [0.82, 0.3, 0.18],
          unitsPerMetre: 1,
          findings: [
            {
              title: 'Bolt corrosion at lower leg joint',
              note: 'Rust has spread to the brace connections since the 2024 survey. Schedule repair.',
              category: 'corrosion',
              severity: 4,
              status: 'open',
              points: [LOWER_JOINT],
              followUpOf: { publicId: 'TWR-001-2024-05', seq: 1 },
            },
            {
              title: 'Antenna sector 3 turned off azimuth',
              note: 'The third sector mount is turned about 8° from its design azimuth; check the clamp bolts.',
              category: 'deformation',
              severity: 3,
              status: 'monitoring',
              points: [sectorThree(8)],
            },
            {
              title: 'Platform height above the footing',
              note: 'Height of the antenna platform above the north-east footing.',
              category: 'other',
              severity: 1,
              status: 'open',
              points: [
                [towerHalf(0), 0.45, towerHalf(0)],
                [towerHalf(36) + 1, 36, towerHalf(36) + 1],
              ],
              measure: 'height',
            },
          ],
        },
        {
          publicId: 'TWR-001-DRAFT',
          name: 'North Ridge Tower, draft reconstruction',
          modelType: 'splat',
          captureDate: '2025-06-03',
          reference: false,
          hidden: true,
          structure: 'tower',
          files: { splat: true, glb: false },
          splatCount: 1500,
          survey: { rust: 0.3, jitter: 4, floaters: 0.12 },
          seed: 13,
          tint: [0.5, 0.5, 0.5],
        },
        {
          publicId: 'TWR-001-2025-09',
          name: 'North Ridge Tower, September 2025 survey',
          modelType: 'splat',
          captureDate: '2025-09-16',
          reference: false,
          hidden: false,
          structure: 'tower',
          files: { splat: true, glb: false, flight: CAPTURE_FLIGHT },
          changedPair: { count: towerGaussians, captureCount: towerGaussians, seed: 14 },
          seed: 14,
          tint: [0.85, 0.2, 0.2],
          unitsPerMetre: 1,
        },
      ],
    },
    {
      name: 'Grand River Footbridge',
      structure_id: 'BRG-002',
      description: 'Steel truss pedestrian bridge over the Grand River. Girder corrosion and deck joints are inspected every spring.',
      address: 'Grand River Trail, Kitchener, ON',
      lat: 43.4312,
      lng: -80.4701,
      models: [
        {
          publicId: 'BRG-002-2025-04',
          name: 'Grand River Footbridge, April 2025',
          modelType: 'mesh',
          captureDate: '2025-04-20',
          reference: true,
          hidden: false,
          structure: 'bridge',
          files: { splat: false, glb: true, photos: 1 },
          seed: 21,
          tint: [0.3, 0.4, 0.7],
          unitsPerMetre: 1,
          findings: [
            {
              title: 'Girder corrosion at the east bearing',
              note: 'Paint loss and rust on the bottom flange of the south girder over the east bearing.',
              category: 'corrosion',
              severity: 2,
              status: 'open',
              points: [[14.9, 3.12, 1.6]],
            },
            {
              title: 'Vegetation on the east abutment',
              note: 'Moss and small plants on the abutment seat; clear at the spring inspection.',
              category: 'vegetation',
              severity: 1,
              status: 'repaired',
              points: [[16, 3.0, 0]],
            },
          ],
        },
      ],
    },
    {
      name: 'Harbour Light Mast',
      structure_id: 'MST-003',
      description: 'Lighting mast at the harbour entrance, scheduled for its first inspection.',
      models: [],
    },
  ];
}

/** The demo catalog at its default density ({@link demoProjects}). */
export const DEMO_PROJECTS: readonly DemoProject[] = demoProjects();
