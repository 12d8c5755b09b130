/**
 * Holds on storage paths being written now (a batch being received, a file being moved into
 * place and recorded, a web-sized copy being made): what the storage scan and repair of the
 * embedded backend must leave alone, because its bytes and its record are not both in place yet.
 */

/** The storage paths held now, each with how many holds of it are open. */
export class StorageHolds {
  private readonly counts = new Map<string, number>();

  /**
   * Marks storage paths as being stored until the returned function is called. Several holds of
   * one path may overlap: the path stays held until each of them is released.
   * @param paths storage paths about to be written (duplicates count once)
   * @returns the release; calling it again does nothing
   */
  hold(paths: readonly string[]): () => void {
    const held = [...new Set(paths)];
    for (const path of held) this.counts.set(path, (this.counts.get(path) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const path of held) {
        const left = (this.counts.get(path) ?? 1) - 1;
        if (left > 0) this.counts.set(path, left);
        else this.counts.delete(path);
      }
    };
  }

  /** True while at least one hold of `path` is open. */
  has(path: string): boolean {
    return this.counts.has(path);
  }

  /** The paths held now, each once. */
  paths(): IterableIterator<string> {
    return this.counts.keys();
  }
}
