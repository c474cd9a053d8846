import type { FocusEvent, MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import { prefetchOnIntent } from '../router/use-prefetch.ts';
import { botVisitor } from '../lib/bot-visitor.ts';

/** An anchor of the rendered Markdown pointing at another page of this site, or null. */
function siteLink(target: EventTarget | null): { anchor: HTMLAnchorElement; url: URL } | null {
  const anchor = target instanceof Element ? target.closest('a') : null;
  if (!anchor || !anchor.hasAttribute('href') || anchor.hasAttribute('download')) return null;
  if (anchor.target && anchor.target !== '_self') return null;
  const url = new URL(anchor.href, window.location.href);
  if (url.origin !== window.location.origin) return null;
  return { anchor, url };
}

/**
 * Sanitized HTML from the content pipeline (rendered once at load on the server). Links in it to
 * other pages of the site navigate on the client and prefetch like AppLink on hover and focus;
 * links to a heading of the same page stay plain anchors (the browser scrolls).
 */
export function Prose({
  html,
  lang,
  className = 'prose',
}: {
  html: string;
  lang?: string | undefined;
  className?: string;
}) {
  const navigate = useNavigate();

  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    const link = siteLink(event.target);
    if (!link) return;
    const { url } = link;
    if (url.pathname === window.location.pathname && url.search === window.location.search && url.hash) return;
    event.preventDefault();
    void navigate(url.pathname + url.search + url.hash);
  };

  const onIntent = (event: MouseEvent<HTMLDivElement> | FocusEvent<HTMLDivElement>) => {
    if (botVisitor() !== false) return;
    const link = siteLink(event.target);
    if (link && link.url.pathname !== window.location.pathname) prefetchOnIntent(link.url.pathname);
  };

  return (
    <div
      className={className}
      lang={lang}
      onClick={onClick}
      onMouseOver={onIntent}
      onFocus={onIntent}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
