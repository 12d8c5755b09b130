// The import directions of DESIGN.md §3 are enforced by ESLint; these tests make sure the rules
// keep firing (a resolver misconfiguration once made them pass silently).
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function ruleIdsFor(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe('import boundaries (DESIGN.md §3)', () => {
  it('refuses portal/ and cli/ imports in shared/', async () => {
    const ids = await ruleIdsFor(
      'shared/boundary-probe.ts',
      "import { paths } from '../portal/src/config/paths.js';\nimport { startServer } from '../cli/src/server/index.js';\nexport const x = [paths, startServer];\n",
    );
    expect(ids.filter((id) => id === 'no-restricted-imports')).toHaveLength(2);
  });

  it('refuses Node, React and Firebase imports in shared/', async () => {
    const ids = await ruleIdsFor(
      'shared/boundary-probe.ts',
      "import { readFileSync } from 'node:fs';\nimport { useState } from 'react';\nexport const x = [readFileSync, useState];\n",
    );
    expect(ids.filter((id) => id === 'no-restricted-imports')).toHaveLength(2);
  });

  it('refuses imports between portal/ and cli/', async () => {
    const fromPortal = await ruleIdsFor('portal/src/boundary-probe.ts', "import { startServer } from '../../cli/src/server/index.js';\nexport const x = startServer;\n");
    const fromCli = await ruleIdsFor('cli/src/boundary-probe.ts', "import { paths } from '../../portal/src/config/paths.js';\nexport const x = paths;\n");
    expect(fromPortal).toContain('no-restricted-imports');
    expect(fromCli).toContain('no-restricted-imports');
  });

  it('accepts shared/ imports from portal/, cli/ and tests/, through the @shared alias only', async () => {
    for (const probe of ['cli/src/boundary-probe.ts', 'portal/src/features/boundary-probe.tsx', 'tests/unit/boundary-probe.ts']) {
      expect(await ruleIdsFor(probe, "import { slugify } from '@shared/slug.js';\nexport const x = slugify;\n")).toEqual([]);
      const relative = probe.startsWith('portal') ? '../../../shared/slug.js' : '../../shared/slug.js';
      expect(await ruleIdsFor(probe, `import { slugify } from '${relative}';\nexport const x = slugify;\n`)).toContain('no-restricted-imports');
    }
  });
});
