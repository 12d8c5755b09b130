// Lint: TypeScript rules plus the import boundaries of docs/ARCHITECTURE.md ("Boundaries"), with ESLint's own
// no-restricted-imports (regex patterns on the import specifier; no resolver needed).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import { readdirSync } from 'node:fs';

/** Import specifiers that reach into a top-level folder, relatively (`../portal/…`) or by name. */
const into = (folder) => `^(\\.{1,2}/)+(\\.\\./)*${folder}/|^${folder}/`;

/** A relative climb into the repository's shared/: written `@shared/…` instead (tsconfig.json paths). */
const viaAlias = { regex: '^(\\.{1,2}/)+shared/', message: "Import shared/ as '@shared/…', not by a relative path." };

/**
 * The portal's features (bulletproof-react's layout, docs/ARCHITECTURE.md "Conventions"): they stand side by side and never import each
 * other or app/; what two share moves down (components/, hooks/, lib/, config/), what combines them moves up
 * (app/routes). Relative specifiers only: a climb out of a feature that names another feature (`../../models/…`,
 * `../../../features/models/…`) or app/. The names are never a folder of src/ or inside a feature, so the
 * specifier alone tells where it lands.
 */
const features = readdirSync(new URL('./portal/src/features/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const otherFeature = (own) => ({
  regex: `^(\\.{1,2}/)+(features/)?(${features.filter((name) => name !== own).join('|')})(/|$)`,
  message:
    `features/${own} must not import another feature: move what they share to components/, hooks/ or lib/, ` +
    'or compose them in app/routes (docs/ARCHITECTURE.md, "Conventions").',
});
const intoApp = {
  regex: '^(\\.{1,2}/)+app(/|$)',
  message: 'Features and the shared portal layers must not import app/ (docs/ARCHITECTURE.md, "Conventions").',
};
/** components/, hooks/, lib/ and config/ sit below the features: they import neither features/ nor app/. */
const intoFeatures = {
  regex: '^(\\.{1,2}/)+features(/|$)',
  message: 'Shared portal code must not import a feature (docs/ARCHITECTURE.md, "Conventions").',
};

const nodeModules = ['node:*', 'fs', 'fs/*', 'path', 'os', 'crypto', 'http', 'https', 'stream', 'child_process', 'url', 'better-sqlite3'];
const firebase = ['firebase', 'firebase/*', 'firebase-admin', 'firebase-admin/*', '@firebase/*'];

/** The portal's patterns (no cli/, no Firebase SDK outside adapters, shared/ by its alias) and the given extra ones. */
function portalPatterns(...extra) {
  return [
    { regex: into('cli'), message: 'portal/ and cli/ never import each other (docs/ARCHITECTURE.md, "Boundaries").' },
    {
      group: firebase,
      message: 'Firebase SDK imports live only in the adapters; screens call ports (docs/ARCHITECTURE.md, "Boundaries").',
    },
    viaAlias,
    ...extra,
  ];
}

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'portal/dist/**',
      '**/dist/**',
      'functions/lib/**',
      '.tmp/**',
      '.catalog-data/**',
      'coverage/**',
      'test-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // shared/ is pure TypeScript: no portal/ or cli/, no React, no Firebase, no Node built-ins.
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: into('portal'), message: 'shared/ must not import portal/ (docs/ARCHITECTURE.md, "Boundaries").' },
            { regex: into('cli'), message: 'shared/ must not import cli/ (docs/ARCHITECTURE.md, "Boundaries").' },
            { group: ['react', 'react-*', 'react/*'], message: 'shared/ must not import React (docs/ARCHITECTURE.md, "Boundaries").' },
            {
              group: firebase,
              message: 'shared/ must not import Firebase; adapters live in portal/ and cli/ (docs/ARCHITECTURE.md, "Boundaries").',
            },
            { group: nodeModules, message: 'shared/ must not import Node modules (docs/ARCHITECTURE.md, "Boundaries").' },
          ],
        },
      ],
    },
  },
  {
    // portal/ and cli/ never import each other; Firebase SDK imports live only in adapters (docs/ARCHITECTURE.md, "Boundaries").
    files: ['portal/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: portalPatterns() }] },
  },
  {
    // The shared layers under the features (docs/ARCHITECTURE.md, "Conventions").
    files: ['portal/src/{components,hooks,lib,config}/**/*.{ts,tsx}'],
    // Test helpers and tests may render the app's providers.
    ignores: ['portal/src/components/testing/**', 'portal/src/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: portalPatterns(intoFeatures, intoApp) }] },
  },
  // One block a feature: no other feature, no app/ (docs/ARCHITECTURE.md, "Conventions").
  ...features.map((name) => ({
    files: [`portal/src/features/${name}/**/*.{ts,tsx}`],
    rules: { 'no-restricted-imports': ['error', { patterns: portalPatterns(otherFeature(name), intoApp) }] },
  })),
  {
    // React's rules of hooks and effect dependencies (the plugin's classic recommended pair; its React Compiler checks are not on).
    files: ['portal/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: into('portal'), message: 'portal/ and cli/ never import each other (docs/ARCHITECTURE.md, "Boundaries").' },
            {
              group: firebase,
              message: 'Firebase SDK imports live only in the adapters; commands call ports (docs/ARCHITECTURE.md, "Boundaries").',
            },
            viaAlias,
          ],
        },
      ],
    },
  },
  {
    // The Firebase adapters may import the SDK; they keep the portal/cli direction.
    files: ['portal/src/**/adapters/**/*.{ts,tsx}', 'portal/src/**/backend/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: into('cli'), message: 'portal/ and cli/ never import each other (docs/ARCHITECTURE.md, "Boundaries").' },
            viaAlias,
            intoFeatures,
            intoApp,
          ],
        },
      ],
    },
  },
  {
    files: ['cli/src/**/adapters/**/*.ts', 'cli/src/**/backend/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: into('portal'), message: 'portal/ and cli/ never import each other (docs/ARCHITECTURE.md, "Boundaries").' },
            viaAlias,
          ],
        },
      ],
    },
  },
  {
    // The Cloud Functions are an adapter of their own: firebase-admin and firebase-functions, the shared workflows,
    // neither portal/ nor cli/ (docs/ARCHITECTURE.md, "Boundaries") but the CLI's web-sized splat maker (Node code
    // of its own, bundled: the copies are made on Firebase with the code the embedded server runs).
    files: ['functions/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: into('portal'), message: 'functions/ must not import portal/ (docs/ARCHITECTURE.md, "Boundaries").' },
            {
              regex: `(${into('cli')})(?!src/lib/web-splat\\.js$)`,
              message: 'functions/ must not import cli/ but its web-splat.js (docs/ARCHITECTURE.md, "Boundaries").',
            },
            viaAlias,
          ],
        },
      ],
    },
  },
  {
    files: ['tests/**/*.{ts,tsx,mts}', 'scripts/**/*.{ts,mts}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [viaAlias] }],
    },
  },
);
