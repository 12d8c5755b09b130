/**
 * Sign-in page. On success the session resolves the role and, once it
 * has one, the user goes to /projects; navigating on the session (not on the sign-in promise)
 * means the shell never sees a half-finished sign-in. The page is one main landmark (screen-reader users jump to it),
 * with a link back to the landing page under the card for a visitor who came here by mistake.
 */
import { Link, Navigate } from 'react-router-dom';
import { APP_TITLE, SIGN_IN_SUBTITLE } from '../../config/app.js';
import { paths } from '../../config/paths.js';
import { mainContentProps } from '../../components/layouts/skip-link.js';
import { useSignIn } from '../../features/auth/api/sign-in.js';
import { SignInForm } from '../../features/auth/components/sign-in-form.js';
import { usePageTitle } from '../../hooks/use-page-title.js';
import { useSession } from '../../lib/session.js';

export default function LoginRoute() {
  const signIn = useSignIn();
  const session = useSession();
  usePageTitle('Sign In');
  if (session.status === 'success' && session.data?.role) return <Navigate to={paths.projects.getHref()} replace />;
  return (
    <main {...mainContentProps} className="auth-page skip-target">
      <div className="auth-brand">
        <h1 className="auth-title">{APP_TITLE}</h1>
        <p className="muted">{SIGN_IN_SUBTITLE}</p>
      </div>
      <div className="card auth-card">
        <div className="card-body">
          <h2 className="auth-heading">Welcome back</h2>
          <p className="muted">Please sign in to your account</p>
          <SignInForm onSignIn={signIn} />
          <p className="alert alert-info auth-notice">
            <strong>Account Registration Required:</strong> Please contact the lab supervisor to obtain your account credentials.
          </p>
        </div>
      </div>
      <p className="auth-back">
        <Link to={paths.landing.getHref()}>← Back to the home page</Link>
      </p>
    </main>
  );
}
