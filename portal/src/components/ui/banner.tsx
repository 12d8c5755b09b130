/** The result banner of a form or screen: a success (green) or error (red) message (SPEC.md §8 texts). */

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
