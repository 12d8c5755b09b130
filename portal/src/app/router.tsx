/**
 * The route tree. Sign-in and landing load eagerly; every other route
 * module is lazy. Shell routes sit under the session guard; /admin/* and the add-model page
 * under the admin guard. Every route has an error screen
 * (`components/ui/route-error.tsx`): the root's for the routes outside the shell, and a pathless
 * route inside the shell for its pages, so the top bar and navigation stay around the message.
 */
import type { ComponentType } from 'react';
import { Outlet, createBrowserRouter, type RouteObject } from 'react-router-dom';
import { AppShell, RequireAdmin } from '../components/layouts/app-shell.js';
import { mainContentProps } from '../components/layouts/skip-link.js';
import { RouteError } from '../components/ui/route-error.js';
import { LoadingState } from '../components/ui/spinner.js';
import { paths } from '../config/paths.js';
import { NavigationHistoryProvider } from '../lib/navigation.js';
import LandingRoute from './routes/landing.js';
import LoginRoute from './routes/login.js';

/** Adapts a route module with a default-exported component to react-router's `lazy`. */
function lazyRoute(load: () => Promise<{ default: ComponentType }>): RouteObject['lazy'] {
  return async () => ({ Component: (await load()).default });
}

function Root() {
  return (
    <NavigationHistoryProvider>
      <Outlet />
    </NavigationHistoryProvider>
  );
}

export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteError standalone />,
    // Shown while the first page's code loads: already the page's main landmark.
    hydrateFallbackElement: (
      <main {...mainContentProps} className="standalone-main skip-target">
        <LoadingState label="Loading..." />
      </main>
    ),
    children: [
      { path: paths.landing.path, element: <LandingRoute /> },
      { path: paths.login.path, element: <LoginRoute /> },
      // Full-window, outside the shell; its chunk carries three.js and Spark.
      { path: paths.viewer.path, lazy: lazyRoute(() => import('./routes/viewer.js')) },
      {
        element: <AppShell />,
        children: [
          {
            // The shell's pages fail inside the shell.
            errorElement: <RouteError />,
            children: [
              { path: paths.catalog.path, lazy: lazyRoute(() => import('./routes/app/catalog.js')) },
              { path: paths.projects.path, lazy: lazyRoute(() => import('./routes/app/projects.js')) },
              { path: paths.projectMap.path, lazy: lazyRoute(() => import('./routes/app/project-map.js')) },
              { path: paths.project.path, lazy: lazyRoute(() => import('./routes/app/project.js')) },
              { path: paths.findings.path, lazy: lazyRoute(() => import('./routes/app/findings.js')) },
              { path: paths.models.path, lazy: lazyRoute(() => import('./routes/app/models.js')) },
              {
                element: <RequireAdmin />,
                children: [
                  { path: paths.addModel.path, lazy: lazyRoute(() => import('./routes/app/add-model.js')) },
                  { path: paths.admin.root.path, lazy: lazyRoute(() => import('./routes/admin/admin.js')) },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', lazy: lazyRoute(() => import('./routes/not-found.js')) },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
