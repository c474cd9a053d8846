import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';

/** The page's main heading, or the main region (or the error screen) when it has none. */
function pageFocusTarget(): HTMLElement | null {
  return (
    document.querySelector<HTMLElement>('#main h1, [data-testid="error-screen"] h1') ??
    document.querySelector<HTMLElement>('#main, [data-testid="error-screen"]')
  );
}

/**
 * After a client navigation, what a full page load would give a keyboard or screen-reader user:
 * focus at the start of the new page (its h1, made focusable for this) and the new title read
 * out through a polite live region. The first page load is left to the browser, and so is an
 * address with a #section, which the browser scrolls to.
 */
export function RouteAnnouncer() {
  const { key, hash } = useLocation();
  const [message, setMessage] = useState('');
  const seen = useRef(key);

  useEffect(() => {
    if (seen.current === key) return;
    seen.current = key;
    // DocumentHead's layout effect (in the layout or an error boundary) has written the new title.
    setMessage(document.title);
    if (hash) return;
    const target = pageFocusTarget();
    if (!target) return;
    if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
    target.focus({ preventScroll: true });
  }, [key, hash]);

  return (
    <div className="visually-hidden" aria-live="polite" aria-atomic="true" data-testid="route-announcer">
      {message}
    </div>
  );
}
