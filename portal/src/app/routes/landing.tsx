/** /: see `features/landing`. */
import { LandingPage } from '../../features/landing/components/landing-page.js';

export default function LandingRoute() {
  return <LandingPage />;
}
