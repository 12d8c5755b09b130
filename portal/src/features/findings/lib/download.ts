/** Saving text the page made as a file (the findings CSV of the findings report). */

/**
 * Offers `text` as a download named `fileName` (a temporary object URL on a hidden link, clicked,
 * then revoked).
 * @param fileName e.g. 'TWR-001-findings.csv'
 * @param text the file's content
 * @param type its media type, e.g. 'text/csv;charset=utf-8'
 */
export function downloadText(fileName: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // revoked after the click's download has started
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * The report's CSV file name: `{structure_id}-findings.csv`, the project's slug or id when it has
 * no structure ID; characters a file name cannot hold become '-'.
 */
export function findingsFileName(project: { id: string; structure_id?: string | null; slug?: string | null }): string {
  const base = (project.structure_id || project.slug || project.id).trim().replace(/[\\/:*?"<>|\s]+/g, '-');
  return `${base}-findings.csv`;
}
