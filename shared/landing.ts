/**
 * Tool cards of the landing page: how a card's
 * status is presented and how its link opens.
 */
import { BUILT_IN_VIEWER_PATH } from './links.js';
import type { ToolCard } from './types.js';

/** A tool card's status: ready, experimental or beta. */
export type ToolCardStatus = ToolCard['status'];

/** How a status is shown on a card. */
export interface ToolCardStatusPresentation {
  /** Text of the status badge. */
  label: string;
  /** Text of the card's action button. */
  action: string;
  /** Text of the card's footer. */
  footer: string;
  /** Badge colour (green for ready, purple otherwise). */
  badgeColor: 'green' | 'purple';
}

/**
 * The presentation of each status:
 * - ready: action 'Access Now', footer 'Production Ready', green badge;
 * - experimental: action 'Try Demo', footer 'Experimental Build', purple badge;
 * - beta: label 'Beta', action 'Try Beta', footer 'Beta Version', purple badge.
 * The badge labels 'Ready' and 'Experimental' are our own wording.
 */
export const TOOL_CARD_STATUS: Readonly<Record<ToolCardStatus, ToolCardStatusPresentation>> = {
  ready: { label: 'Ready', action: 'Access Now', footer: 'Production Ready', badgeColor: 'green' },
  experimental: { label: 'Experimental', action: 'Try Demo', footer: 'Experimental Build', badgeColor: 'purple' },
  beta: { label: 'Beta', action: 'Try Beta', footer: 'Beta Version', badgeColor: 'purple' },
};

/** The presentation of a card's status (see {@link TOOL_CARD_STATUS}). */
export function toolCardStatus(status: ToolCardStatus): ToolCardStatusPresentation {
  return TOOL_CARD_STATUS[status];
}

/**
 * True when the card links outside the app, so it opens in a new tab: an absolute http(s)
 * URL, or the built-in viewer, which stands in for an external viewer's host when none is
 * configured (a full-window page outside the app's shell, opened as the external one would be).
 */
export function isExternalToolCard(card: Pick<ToolCard, 'url'>): boolean {
  const url = card.url.trim();
  return (
    /^https?:\/\//i.test(url) ||
    url === BUILT_IN_VIEWER_PATH ||
    url.startsWith(`${BUILT_IN_VIEWER_PATH}?`) ||
    url.startsWith(`${BUILT_IN_VIEWER_PATH}/`)
  );
}

/** How a card's link opens (external cards in a new tab, internal ones navigate in-app). */
export type ToolCardLink = { external: true; href: string; target: '_blank'; rel: 'noopener noreferrer' } | { external: false; to: string };

/** The link of a card: external URLs and the built-in viewer open in a new tab, app routes ('/catalog') navigate in-app. */
export function toolCardLink(card: Pick<ToolCard, 'url'>): ToolCardLink {
  const url = card.url.trim();
  return isExternalToolCard(card)
    ? { external: true, href: url, target: '_blank', rel: 'noopener noreferrer' }
    : { external: false, to: url };
}
