/**
 * The frame of the project and model management screens: the title, the screen's banner, the 1+3
 * grid with the pick list on the left and, on the right, the selection's panels or the 'No …
 * Selected' state. A new banner is scrolled into view below the fixed top bar (otherwise a blocked
 * delete's banner would sit above the screen or half under the top bar; `.management-banner` has
 * its scroll margin). The banner sits in live regions that are always there (a blocked delete is
 * announced); when the focus's control went away with a deleted item, the screen's heading takes it
 * ({@link screenHeading}).
 */
import { useEffect, useRef, type ReactNode, type Ref } from 'react';
import { LiveBanner, type BannerMessage } from '../../../components/ui/banner.js';

/**
 * The heading to give the focus to when the focused control went away (a deleted item's buttons):
 * the page's h1 (made focusable by script), else `fallback` (the management title).
 */
export function screenHeading(fallback: HTMLElement | null): HTMLElement | null {
  const h1 = document.querySelector<HTMLElement>('main h1') ?? document.querySelector<HTMLElement>('h1');
  if (h1 === null) return fallback;
  if (!h1.hasAttribute('tabindex')) h1.setAttribute('tabindex', '-1');
  return h1;
}

export interface ManagementLayoutProps {
  className: string;
  title: string;
  banner: BannerMessage | null;
  /** The left column (a PickList). */
  pickList: ReactNode;
  /** The right column's panels; null when nothing is selected (the empty state shows). */
  children: ReactNode;
  emptyTitle: string;
  emptyText: string;
  /** The title heading (focusable by script: tabIndex -1). */
  titleRef?: Ref<HTMLHeadingElement>;
}

export function ManagementLayout({ className, title, banner, pickList, children, emptyTitle, emptyText, titleRef }: ManagementLayoutProps) {
  const bannerBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // jsdom has no scrollIntoView
    if (banner !== null) bannerBox.current?.scrollIntoView?.({ block: 'nearest' });
  }, [banner]);
  return (
    <div className={className}>
      <h2 className="panel-title" ref={titleRef} tabIndex={-1}>
        {title}
      </h2>
      <div ref={bannerBox} className="management-banner">
        <LiveBanner banner={banner} />
      </div>
      <div className="grid-4">
        {pickList}
        <div className="span-3">
          {children ?? (
            <div className="panel state">
              <h3 className="state-title">{emptyTitle}</h3>
              <p className="state-text">{emptyText}</p>
            </div>
          )}
        </div>
      </div>
    </div>
  );
}
