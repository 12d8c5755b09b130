// The import directions of docs/ARCHITECTURE.md §3 (Boundaries) are enforced by ESLint; these tests make sure the rules
// keep firing (a resolver misconfiguration once made them pass silently).
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function ruleIdsFor(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe('import boundaries (docs/ARCHITECTURE.md §3)', () => {
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
    const fromPortal = await ruleIdsFor(
      'portal/src/boundary-probe.ts',
      "import { startServer } from '../../cli/src/server/index.js';\nexport const x = startServer;\n",
    );
    const fromCli = await ruleIdsFor(
      'cli/src/boundary-probe.ts',
      "import { paths } from '../../portal/src/config/paths.js';\nexport const x = paths;\n",
    );
    expect(fromPortal).toContain('no-restricted-imports');
    expect(fromCli).toContain('no-restricted-imports');
  });

  it('refuses portal/ and cli/ imports in functions/, accepts firebase-admin, the @shared alias and the CLI’s web-sized splat maker there', async () => {
    const ids = await ruleIdsFor(
      'functions/src/boundary-probe.ts',
      "import { paths } from '../../portal/src/config/paths.js';\nimport { AdminFiles } from '../../cli/src/adapters/firebase-admin/files.js';\nimport { slugify } from '../../shared/slug.js';\nexport const x = [paths, AdminFiles, slugify];\n",
    );
    expect(ids.filter((id) => id === 'no-restricted-imports')).toHaveLength(3);
    expect(
      await ruleIdsFor(
        'functions/src/boundary-probe.ts',
        "import { getFirestore } from 'firebase-admin/firestore';\nimport { slugify } from '@shared/slug.js';\nimport { compressSplatFile } from '../../cli/src/lib/web-splat.js';\nexport const x = [getFirestore, slugify, compressSplatFile];\n",
      ),
    ).toEqual([]);
    expect(
      await ruleIdsFor(
        'functions/src/boundary-probe.ts',
        "import { compressGlbFile } from '../../cli/src/lib/web-glb.js';\nexport const x = compressGlbFile;\n",
      ),
    ).toContain('no-restricted-imports');
  });

  it('accepts shared/ imports from portal/, cli/ and tests/, through the @shared alias only', async () => {
    for (const probe of ['cli/src/boundary-probe.ts', 'portal/src/features/boundary-probe.tsx', 'tests/unit/boundary-probe.ts']) {
      expect(await ruleIdsFor(probe, "import { slugify } from '@shared/slug.js';\nexport const x = slugify;\n")).toEqual([]);
      const relative = probe.startsWith('portal') ? '../../../shared/slug.js' : '../../shared/slug.js';
      expect(await ruleIdsFor(probe, `import { slugify } from '${relative}';\nexport const x = slugify;\n`)).toContain(
        'no-restricted-imports',
      );
    }
  });

  it('refuses cross-feature imports in the portal and accepts imports inside a feature (docs/ARCHITECTURE.md §4)', async () => {
    const probe = 'portal/src/features/catalog/components/boundary-probe.tsx';
    const imports = (specifier: string) => `import { x } from '${specifier}';\nexport const y = x;\n`;
    for (const other of ['../../models/api/use-models.js', '../../../features/projects/api/use-projects.js', '../../admin/admin.css']) {
      expect(await ruleIdsFor(probe, imports(other)), other).toContain('no-restricted-imports');
    }
    const own = ['./catalog-home.js', '../catalog.css', '../../catalog/components/catalog-home.js', '../../../components/ui/banner.js'];
    for (const ownOrShared of [...own, '../../../lib/resource.js']) {
      expect(await ruleIdsFor(probe, imports(ownOrShared)), ownOrShared).toEqual([]);
    }
  });

  it('refuses app/ imports in features and feature imports in the shared portal layers; app/routes composes features', async () => {
    const imports = (specifier: string) => `import { x } from '${specifier}';\nexport const y = x;\n`;
    const featureProbe = 'portal/src/features/models/components/boundary-probe.tsx';
    const fromFeature = await ruleIdsFor(featureProbe, imports('../../../app/routes/app/models.js'));
    expect(fromFeature).toContain('no-restricted-imports');
    const sharedProbes = [
      'portal/src/components/ui/boundary-probe.tsx',
      'portal/src/hooks/boundary-probe.ts',
      'portal/src/lib/boundary-probe.ts',
    ];
    for (const probe of sharedProbes) {
      expect(await ruleIdsFor(probe, imports('../../features/auth/api/sign-in.js')), probe).toContain('no-restricted-imports');
    }
    const route =
      "import { useModels } from '../../../features/models/api/use-models.js';\n" +
      "import { useProjects } from '../../../features/projects/api/use-projects.js';\n" +
      'export const x = [useModels, useProjects];\n';
    expect(await ruleIdsFor('portal/src/app/routes/app/boundary-probe.tsx', route)).toEqual([]);
  });

  it("applies React's rules of hooks and effect dependencies to the portal", async () => {
    const code =
      "import { useEffect, useState } from 'react';\n" +
      'export function Probe({ on, id }: { on: boolean; id: string }) {\n' +
      '  if (on) useState(0);\n' +
      '  useEffect(() => console.log(id), []);\n' +
      '  return null;\n' +
      '}\n';
    const ids = await ruleIdsFor('portal/src/features/catalog/components/boundary-probe.tsx', code);
    expect(ids).toContain('react-hooks/rules-of-hooks');
    expect(ids).toContain('react-hooks/exhaustive-deps');
  });
});
