/**
 * The three tool cards of the landing page (SPEC.md §2 Landing page, §3 Tool card entry). The
 * images ship with the portal (portal/public/tools, made for this project): a static SVG and an
 * animated (SMIL) SVG shown on hover. The spec names the external viewers' hosts only as {host};
 * the hosts below are this deployment's placeholders.
 */
import type { ToolCard } from '../../../../shared/types.js';

/** Host of the point-cloud and splat-rendering viewer (card 2). */
export const SPLAT_VIEWER_HOST = 'https://splats.inspectai.example';
/** Host of the dual-screen monitoring viewer (card 3; its route is the hash '#/viewer'). */
export const DUAL_VIEWER_HOST = 'https://monitor.inspectai.example';

export const TOOL_CARDS: readonly ToolCard[] = [
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
    url: `${SPLAT_VIEWER_HOST}/`,
    images: { static: '/tools/splat-viewer.svg', animated: '/tools/splat-viewer-animated.svg' },
    color: { primary: '#7c3aed', hover: '#6d28d9', badge: 'purple' },
    status: 'experimental',
  },
  {
    id: 'dual-viewer',
    name: 'Dual-Screen Inspection Viewer',
    description:
      'A dual-screen viewer for infrastructure monitoring and AI inspection analysis: compare captures side by side and review detected defects.',
    url: `${DUAL_VIEWER_HOST}/#/viewer`,
    images: { static: '/tools/dual-viewer.svg', animated: '/tools/dual-viewer-animated.svg' },
    color: { primary: '#d97706', hover: '#b45309', badge: 'purple' },
    status: 'experimental',
  },
];
