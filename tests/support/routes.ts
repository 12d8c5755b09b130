// The portal's routes as the browser tests walk them (the portal's route table): signed out, as a
// user and as an admin, each with what shows once its content is there. Used by the responsive
// test (every route at desktop and phone widths) and the accessibility scan (WCAG 2.1 AA).
import type { Page } from 'playwright-core';

/** One route to check: where, a name for screenshots and reports, and what shows when its content is there. */
export interface RouteCheck {
  path: string;
  name: string;
  /** A CSS selector or text that appears once the content is there (default: a heading). */
  ready?: { text: string | RegExp } | { selector: string };
}

/** Landing, sign-in and a missing page. */
export const signedOutRoutes: RouteCheck[] = [
  { path: '/', name: 'landing', ready: { text: 'BETA' } },
  { path: '/login', name: 'login', ready: { text: 'Welcome back' } },
  { path: '/no-such-page', name: 'not-found', ready: { text: 'Page Not Found' } },
];

/**
 * The signed-in screens every role sees.
 * @param projectId a project with visible models (its detail page)
 */
export function userRoutes(projectId: string): RouteCheck[] {
  return [
    { path: '/catalog', name: 'catalog', ready: { text: 'Browse All Projects' } },
    { path: '/projects', name: 'projects', ready: { selector: '[data-testid="project-card"], [data-testid="project-row"]' } },
    {
      path: '/projects?view=table',
      name: 'projects-table',
      ready: { selector: '[data-testid="project-row"], [data-testid="project-card"]' },
    },
    { path: '/projects/map', name: 'map', ready: { text: 'Project Map' } },
    { path: `/projects/${projectId}`, name: 'project-detail', ready: { text: /^3D Models \(\d+\)$/ } },
    {
      path: `/projects/${projectId}/findings`,
      name: 'findings',
      ready: { selector: '[data-testid="findings-table"], [data-testid="findings-report"] .state-empty' },
    },
    { path: '/models', name: 'models', ready: { text: /models found/ } },
  ];
}

/**
 * The user's screens (named `admin-…`), the admin dashboard's pages and the add-model pages.
 * @param projectId a project with visible models (its detail, edit and add-model pages)
 */
export function adminRoutes(projectId: string): RouteCheck[] {
  return [
    ...userRoutes(projectId).map((route) => ({ ...route, name: `admin-${route.name}` })),
    { path: '/admin', name: 'admin' },
    { path: '/admin/projects', name: 'admin-projects' },
    { path: '/admin/project-management', name: 'admin-project-management' },
    { path: '/admin/model-management', name: 'admin-model-management' },
    { path: '/admin/users', name: 'admin-users' },
    { path: `/admin/projects/${projectId}`, name: 'admin-edit-project' },
    { path: `/admin/models/add/${projectId}`, name: 'admin-add-model' },
    { path: `/projects/${projectId}/add-model`, name: 'add-model' },
  ];
}

/** Waits for the route's content, then for spinners to go (a few may stay: links still resolving). */
export async function settle(page: Page, route: RouteCheck): Promise<void> {
  const ready = route.ready ?? { selector: 'h1, h2' };
  const target = 'text' in ready ? page.getByText(ready.text).first() : page.locator(ready.selector).first();
  await target.waitFor({ timeout: 20_000 });
  await page
    .waitForFunction(() => document.querySelectorAll('.spinner-wrap').length === 0, null, { timeout: 5_000 })
    .catch(() => undefined);
  await page.waitForTimeout(250);
}
