// Lint: TypeScript rules plus the import directions of DESIGN.md §3.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

export default tseslint.config(
  { ignores: ['node_modules/**', 'portal/dist/**', '**/dist/**', '.catalog-data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'import-x': importX },
    // Resolve `.js` specifiers to the `.ts` sources, so path-based rules see real files.
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // DESIGN.md §3: shared/ imports nothing from portal/ or cli/; portal/ and cli/ never import each other.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './shared', from: './portal', message: 'shared/ must not import portal/ (DESIGN.md §3).' },
            { target: './shared', from: './cli', message: 'shared/ must not import cli/ (DESIGN.md §3).' },
            { target: './portal', from: './cli', message: 'portal/ and cli/ never import each other (DESIGN.md §3).' },
            { target: './cli', from: './portal', message: 'portal/ and cli/ never import each other (DESIGN.md §3).' },
          ],
        },
      ],
    },
  },
  {
    // DESIGN.md §3: shared/ is pure TypeScript: no React, no Firebase, no Node built-ins.
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['react', 'react-*', 'react/*'], message: 'shared/ must not import React (DESIGN.md §3).' },
            { group: ['firebase', 'firebase/*', 'firebase-admin', 'firebase-admin/*', '@firebase/*'], message: 'shared/ must not import Firebase; adapters live in portal/ and cli/ (DESIGN.md §3).' },
            { group: ['node:*', 'fs', 'fs/*', 'path', 'os', 'crypto', 'http', 'https', 'stream', 'child_process', 'url', 'better-sqlite3'], message: 'shared/ must not import Node modules (DESIGN.md §3).' },
          ],
        },
      ],
    },
  },
  {
    // Firebase SDK imports live only in adapters (DESIGN.md §3).
    files: ['portal/src/**/*.{ts,tsx}', 'cli/src/**/*.ts'],
    ignores: ['**/adapters/**', '**/backend/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['firebase', 'firebase/*', 'firebase-admin', 'firebase-admin/*'], message: 'Firebase SDK imports live only in the adapters; screens and commands call ports (DESIGN.md §3).' }] },
      ],
    },
  },
);
