/**
 * A success message handed from one page to the next through the navigation's state (so
 * 'Project created successfully!' and '✅ Model uploaded successfully!' outlive the form's page),
 * e.g. `navigate(href, { state: { flash: text } satisfies FlashState })`.
 */
import { useLocation } from 'react-router-dom';

/** What a page hands the next one to show. */
export interface FlashState {
  flash?: string;
}

/** The success message handed over by the page that navigated here, or null. */
export function useFlash(): string | null {
  const state = useLocation().state as FlashState | null;
  return typeof state?.flash === 'string' ? state.flash : null;
}
