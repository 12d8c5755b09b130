// axe-core in the browser tests: one scan of the current page against WCAG 2.1 A and AA, with
// each violating element reported as one readable line.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** The axe rule tags of WCAG 2.0 and 2.1, levels A and AA (what the issue asks the portal to meet). */
export const WCAG_21_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/**
 * Runs axe-core on `page` (its whole document, including open dialogs) against WCAG 2.1 A/AA.
 * @param page a Playwright page whose content has settled
 * @param screen a name for the screen, put in front of every line
 * @returns one line per violating element: `screen: rule-id (impact) selector — summary`; empty when none
 */
export async function axeViolations(page: Page, screen: string): Promise<string[]> {
  // axe.run in the page itself (legacy mode): the default runs each frame apart and merges the
  // results in a new blank page per scan, which costs a page per scan and buys nothing here (the
  // portal has no cross-origin frames). Only violations are collected in full: the passes of a
  // 400-card page are thousands of nodes serialised for nothing.
  const results = await new AxeBuilder({ page })
    .withTags(WCAG_21_AA_TAGS)
    .options({ resultTypes: ['violations'] })
    .setLegacyMode(true)
    .analyze();
  const lines: string[] = [];
  for (const violation of results.violations) {
    for (const node of violation.nodes) {
      const summary = (node.failureSummary ?? violation.help).replace(/\s+/g, ' ').slice(0, 220);
      lines.push(`${screen}: ${violation.id} (${violation.impact ?? 'n/a'}) ${node.target.join(' ')} — ${summary}`);
    }
  }
  return lines;
}
