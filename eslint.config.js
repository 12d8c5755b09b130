// Lint: TypeScript rules plus the import directions of DESIGN.md §3, with ESLint's own
// no-restricted-imports (regex patterns on the import specifier; no resolver needed).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

/** Import specifiers that reach into a top-level folder, relatively (`../portal/…`) or by name. */
const into = (folder) => `^(\\.{1,2}/)+(\\.\\./)*${folder}/|^${folder}/`;

/** A relative climb into the repository's shared/: written `@shared/…` instead (tsconfig.json paths). */
const viaAlias = { regex: '^(\\.{1,2}/)+shared/', message: "Import shared/ as '@shared/…', not by a relative path." };

const nodeModules = ['node:*', 'fs', 'fs/*', 'path', 'os', 'crypto', 'http', 'https', 'stream', 'child_process', 'url', 'better-sqlite3'];
const firebase = ['firebase', 'firebase/*', 'firebase-admin', 'firebase-admin/*', '@firebase/*'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'portal/dist/**', '**/dist/**', '.catalog-data/**', 'coverage/**', 'test-results/**'] },
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
    // DESIGN.md §3: shared/ is pure TypeScript: no portal/ or cli/, no React, no Firebase, no Node built-ins.
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: into('portal'), message: 'shared/ must not import portal/ (DESIGN.md §3).' },
            { regex: into('cli'), message: 'shared/ must not import cli/ (DESIGN.md §3).' },
            { group: ['react', 'react-*', 'react/*'], message: 'shared/ must not import React (DESIGN.md §3).' },
            { group: firebase, message: 'shared/ must not import Firebase; adapters live in portal/ and cli/ (DESIGN.md §3).' },
            { group: nodeModules, message: 'shared/ must not import Node modules (DESIGN.md §3).' },
          ],
        },
      ],
    },
  },
  {
    // portal/ and cli/ never import each other; Firebase SDK imports live only in adapters (DESIGN.md §3).
    files: ['portal/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: into('cli'), message: 'portal/ and cli/ never import each other (DESIGN.md §3).' },
            { group: firebase, message: 'Firebase SDK imports live only in the adapters; screens call ports (DESIGN.md §3).' },
            viaAlias,
          ],
        },
      ],
    },
  },
  {
    files: ['cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: into('portal'), message: 'portal/ and cli/ never import each other (DESIGN.md §3).' },
            { group: firebase, message: 'Firebase SDK imports live only in the adapters; commands call ports (DESIGN.md §3).' },
            viaAlias,
          ],
        },
      ],
    },
  },
  {
    // The Firebase adapters (a later issue) may import the SDK; they keep the portal/cli direction.
    files: ['portal/src/**/adapters/**/*.{ts,tsx}', 'portal/src/**/backend/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: into('cli'), message: 'portal/ and cli/ never import each other (DESIGN.md §3).' }, viaAlias] }],
    },
  },
  {
    files: ['cli/src/**/adapters/**/*.ts', 'cli/src/**/backend/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: into('portal'), message: 'portal/ and cli/ never import each other (DESIGN.md §3).' }, viaAlias] }],
    },
  },
  {
    files: ['tests/**/*.{ts,tsx,mts}', 'scripts/**/*.{ts,mts}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [viaAlias] }],
    },
  },
);
