/**
 * The three tool cards of the landing page. The
 * images ship with the portal (portal/public/tools, made for this project): a static SVG and an
 * animated (SMIL) SVG shown on hover. The external viewers' hosts are not fixed:
 * when a deployment configures them (`CATALOG_SPLAT_VIEWER_URL` / `CATALOG_DUAL_VIEWER_URL`, or
 * `VITE_SPLAT_VIEWER_URL` / `VITE_DUAL_VIEWER_URL` for a Firebase build) the cards open them in a
 * new tab; otherwise they open, in a new tab too, the built-in viewer on the demo scene that
 * ships with the portal (public/demo: no sign-in, no catalog data).
 */
import { BUILT_IN_VIEWER_DEMO } from '@shared/links.js';
import type { ToolCard } from '@shared/types.js';

/** Hosts of the experimental viewers (card 2: point-cloud and splat viewer; card 3: dual-screen viewer, route '#/viewer'). */
export interface ToolViewerHosts {
  splatViewer: string | null;
  dualViewer: string | null;
}

const withoutTrailingSlash = (url: string): string => url.trim().replace(/\/+$/, '');

/**
 * The landing page's cards for a deployment.
 * @param hosts the configured hosts of the experimental viewers (null: the built-in viewer)
 * @returns the three cards, in order
 */
export function toolCards(hosts: ToolViewerHosts = { splatViewer: null, dualViewer: null }): ToolCard[] {
  return [
    {
      id: 'catalog',
      name: 'Infrastructure Inspection Catalog',
      description:
        'Browse and manage 3D model collections of inspected structures with filtering, search and project organisation, then open any model in the 3D viewer.',
      url: '/catalog',
      images: { static: '/tools/catalog.svg', animated: '/tools/catalog-animated.svg' },
      color: { primary: '#2563eb', hover: '#1d4ed8', badge: 'green' },
      status: 'ready',
    },
    {
      id: 'splat-viewer',
      name: 'Point Cloud & Splat Viewer',
      description:
        'Render dense point clouds and Gaussian splats of towers and masts in the browser, with real-time navigation and measurement of captured scenes.',
      url: hosts.splatViewer ? `${withoutTrailingSlash(hosts.splatViewer)}/` : BUILT_IN_VIEWER_DEMO.splat,
      images: { static: '/tools/splat-viewer.svg', animated: '/tools/splat-viewer-animated.svg' },
      color: { primary: '#7c3aed', hover: '#6d28d9', badge: 'purple' },
      status: 'experimental',
    },
    {
      id: 'dual-viewer',
      name: 'Dual-Screen Inspection Viewer',
      description:
        'A dual-screen viewer for infrastructure monitoring and AI inspection analysis: compare captures side by side and review detected defects.',
      url: hosts.dualViewer ? `${withoutTrailingSlash(hosts.dualViewer)}/#/viewer` : BUILT_IN_VIEWER_DEMO.compare,
      images: { static: '/tools/dual-viewer.svg', animated: '/tools/dual-viewer-animated.svg' },
      // amber-700: white text on it 5.0:1 (#d97706 gave 3.2:1)
      color: { primary: '#b45309', hover: '#92400e', badge: 'purple' },
      status: 'experimental',
    },
  ];
}

/** The cards with no external viewer configured. */
export const TOOL_CARDS: readonly ToolCard[] = toolCards();
