/**
 * A marker's popup on the key-less maps, as a small dialog: named after its
 * point, focus moves in on open (to the element marked `data-popup-focus`, e.g. 'View Project',
 * else the first control), Tab and Shift+Tab stay inside it, and Escape or its Close button
 * closes it and gives focus back to what had it when the popup opened (the marker, or the
 * keyboard list's entry) — or to `fallbackFocus` when that is gone.
 */
import { useEffect, useRef, type CSSProperties, type KeyboardEvent, type ReactNode } from 'react';
import { keepTabInside, tabbableIn } from '../ui/focus.js';

export interface MapPopupProps {
  /** The dialog's accessible name (the point's label, e.g. the project's name). */
  label: string;
  style: CSSProperties;
  onClose: () => void;
  /** Where focus goes on close when the element that opened the popup is no longer in the page. */
  fallbackFocus?: () => HTMLElement | null;
  children: ReactNode;
}

export function MapPopup({ label, style, onClose, fallbackFocus, children }: MapPopupProps) {
  const root = useRef<HTMLDivElement>(null);
  const opener = useRef<Element | null>(null);

  useEffect(() => {
    opener.current = document.activeElement;
    const node = root.current;
    const target = node?.querySelector<HTMLElement>('[data-popup-focus]') ?? tabbableIn(node)[0];
    target?.focus();
  }, []);

  const close = () => {
    const back = opener.current;
    onClose();
    if (back instanceof HTMLElement && back.isConnected && back !== document.body) back.focus();
    else fallbackFocus?.()?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close();
      return;
    }
    keepTabInside(event);
  };

  return (
    <div ref={root} className="map-popup" style={style} role="dialog" aria-label={label} onKeyDown={onKeyDown}>
      <button type="button" className="map-popup-close" aria-label="Close" onClick={close}>
        ×
      </button>
      {children}
    </div>
  );
}
