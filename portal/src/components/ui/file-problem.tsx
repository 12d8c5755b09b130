/** A chosen file's content problem, under its input (issue 16 immediate feedback). */
import './forms.css';

/** The problem as an alert, or nothing. */
export function FileProblem({ problem }: { problem: string | null }) {
  if (problem === null) return null;
  return (
    <span className="field-error" role="alert">
      {problem}
    </span>
  );
}
