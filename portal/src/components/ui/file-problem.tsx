/**
 * A chosen file's content problem under its input, shown as soon as the file is chosen: an alert
 * outside the input's label (so the label stays the input's name), tied to the input by
 * `aria-describedby` ({@link useFileProblemId}).
 */
import { useId } from 'react';
import './forms.css';

/** An id for a file input's problem; pass it to {@link FileProblem} and, while there is a problem, to the input's `aria-describedby`. */
export function useFileProblemId(): string {
  return `file-problem-${useId()}`;
}

/** The problem as an alert, or nothing. */
export function FileProblem({ id, problem }: { id: string; problem: string | null }) {
  if (problem === null) return null;
  return (
    <span id={id} className="field-error" role="alert">
      {problem}
    </span>
  );
}
