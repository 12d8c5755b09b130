/** /models (SPEC.md §2 Model list). */
import { EmptyState } from '../../../components/ui/empty-state.js';
import { ModelList } from '../../../features/models/components/model-list.js';
import { useRole } from '../../../lib/session.js';

export default function ModelsRoute() {
  const role = useRole();
  if (role === null) return <EmptyState title="Login Required" text="Please sign in to access the model catalog." />;
  return (
    <div className="page">
      <header className="page-header">
        <h1 className="page-title">Infrastructure Inspection 3D Models</h1>
      </header>
      <ModelList isAdmin={role === 'admin'} />
    </div>
  );
}
