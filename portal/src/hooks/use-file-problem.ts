/**
 * Immediate feedback on a chosen model file: the shared content check for what the
 * input takes (a splat: `.ply`/`.splat`; a GLB) runs as soon as a file is picked, and its problem
 * ('This .glb is an HTML page, not a GLB file (html-named.glb).') is shown under the input before
 * the upload is pressed. The upload itself still goes through the workflow, which checks again.
 */
import { useEffect, useState } from 'react';
import { blobSource, checkGlb, checkSplat } from '@shared/content-check/index.js';

/** What a file input takes. */
export type ModelFileInputKind = 'splat' | 'glb';

/**
 * The problem of the chosen file, by the shared check of its input's kind.
 * @param file the chosen file, or null
 * @param kind what the input takes
 * @returns the check's problem when it refuses the file, else null (also while checking and
 *   when the file could not be read here: the workflow decides then)
 */
export function useFileProblem(file: File | null, kind: ModelFileInputKind): string | null {
  const [result, setResult] = useState<{ file: File; problem: string | null } | null>(null);
  useEffect(() => {
    if (file === null) return;
    let active = true;
    const source = blobSource(file, file.name);
    // a splat's refusal depends on its header and size only: its data is read once, by the upload
    (kind === 'glb' ? checkGlb(source) : checkSplat(source, { scanData: false })).then(
      (check) => active && setResult({ file, problem: check.verdict === 'refused' ? check.problem : null }),
      (error: unknown) => {
        console.error(`Could not check ${file.name}`, error);
        if (active) setResult({ file, problem: null });
      },
    );
    return () => {
      active = false;
    };
  }, [file, kind]);
  return result !== null && result.file === file ? result.problem : null;
}
