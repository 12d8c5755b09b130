/** The result banner of a form or screen: a success (green) or error (red) message from the message catalogue. */
import { useEffect, useState } from 'react';

/** A success (green) or error (red) result message. */
export interface BannerMessage {
  kind: 'success' | 'error';
  text: string;
}

/** The result banner: an alert for errors, a status for successes, nothing without a message. */
export function Banner({ banner }: { banner: BannerMessage | null }) {
  if (!banner) return null;
  return (
    <p className={`alert alert-${banner.kind}`} role={banner.kind === 'error' ? 'alert' : 'status'}>
      {banner.text}
    </p>
  );
}

/**
 * The result banner inside live regions that are always in the page (WCAG 4.1.3 Status
 * Messages): a polite region for a success and an assertive one for an error, both rendered
 * (empty) before any message arrives, so that a screen reader announces the message when it
 * appears. The message itself is the same element as {@link Banner}'s (role status / alert).
 * `id` names the wrapper, for a field's `aria-describedby`.
 */
export function LiveBanner({ banner, id, className }: { banner: BannerMessage | null; id?: string; className?: string }) {
  return (
    <div id={id} className={className ? `live-banner ${className}` : 'live-banner'}>
      <div aria-live="polite" aria-atomic="true">
        {banner?.kind === 'success' ? <Banner banner={banner} /> : null}
      </div>
      <div aria-live="assertive" aria-atomic="true">
        {banner?.kind === 'error' ? <Banner banner={banner} /> : null}
      </div>
    </div>
  );
}

/**
 * A success message that arrives with the page (a flash handed over by the page before, see
 * hooks/use-flash.ts), in a {@link LiveBanner} whose region is rendered empty first and gets the
 * text a frame later, so that a screen reader announces it like any other result.
 */
export function FlashBanner({ text }: { text: string | null }) {
  const [shown, setShown] = useState<string | null>(null);
  useEffect(() => {
    const frame = requestAnimationFrame(() => setShown(text));
    return () => cancelAnimationFrame(frame);
  }, [text]);
  return <LiveBanner banner={shown === null ? null : { kind: 'success', text: shown }} />;
}
