/**
 * Every route of the portal in one object, bulletproof-react style:
 * `path` is the router pattern, `getHref(...)` builds a concrete link.
 */
import { BUILT_IN_VIEWER_PATH } from '@shared/links.js';

export const paths = {
  landing: { path: '/', getHref: () => '/' },
  login: { path: '/login', getHref: () => '/login' },
  /** The built-in 3D viewer (the viewer links: `?id=`, `?compareMode=true&id=&referenceId=`). */
  viewer: {
    path: BUILT_IN_VIEWER_PATH,
    getHref: (publicId: string, referencePublicId?: string) =>
      referencePublicId === undefined
        ? `${BUILT_IN_VIEWER_PATH}?id=${encodeURIComponent(publicId)}`
        : `${BUILT_IN_VIEWER_PATH}?compareMode=true&id=${encodeURIComponent(publicId)}&referenceId=${encodeURIComponent(referencePublicId)}`,
  },
  catalog: { path: '/catalog', getHref: () => '/catalog' },
  models: { path: '/models', getHref: () => '/models' },
  projects: { path: '/projects', getHref: () => '/projects' },
  projectMap: { path: '/projects/map', getHref: () => '/projects/map' },
  project: { path: '/projects/:projectId', getHref: (projectId: string) => `/projects/${encodeURIComponent(projectId)}` },
  /** The project's findings report. */
  findings: {
    path: '/projects/:projectId/findings',
    getHref: (projectId: string) => `/projects/${encodeURIComponent(projectId)}/findings`,
  },
  addModel: {
    path: '/projects/:projectId/add-model',
    getHref: (projectId: string) => `/projects/${encodeURIComponent(projectId)}/add-model`,
  },
  admin: {
    root: { path: '/admin/*', getHref: () => '/admin' },
    projects: { path: '/admin/projects', getHref: () => '/admin/projects' },
    projectManagement: {
      path: '/admin/project-management',
      getHref: (projectId?: string) =>
        projectId ? `/admin/project-management?projectId=${encodeURIComponent(projectId)}` : '/admin/project-management',
    },
    modelManagement: {
      path: '/admin/model-management',
      getHref: (modelId?: string) =>
        modelId ? `/admin/model-management?modelId=${encodeURIComponent(modelId)}` : '/admin/model-management',
    },
    users: { path: '/admin/users', getHref: () => '/admin/users' },
    editProject: { path: '/admin/projects/:projectId', getHref: (projectId: string) => `/admin/projects/${encodeURIComponent(projectId)}` },
    addModel: {
      path: '/admin/models/add/:projectId',
      getHref: (projectId: string) => `/admin/models/add/${encodeURIComponent(projectId)}`,
    },
  },
} as const;

/** Path prefixes that show the left navigation. */
export const NAV_PATH_PREFIXES = ['/catalog', '/projects', '/models', '/admin'] as const;
