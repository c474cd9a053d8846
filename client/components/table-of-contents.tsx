import { useEffect, useState } from 'react';
import { useTranslation } from '../i18n.ts';
import type { TocEntry } from '../../contract/content.ts';

interface TocNode extends TocEntry {
  children: TocEntry[];
}

/** h3 entries nest under the h2 before them (an h3 before any h2 stays at the top level). */
export function nestToc(toc: readonly TocEntry[]): TocNode[] {
  const nodes: TocNode[] = [];
  for (const entry of toc) {
    const parent = nodes.at(-1);
    if (entry.level === 3 && parent) parent.children.push(entry);
    else nodes.push({ ...entry, children: [] });
  }
  return nodes;
}

/** How far below the top of the window a heading counts as the one being read. */
function readingLine(): number {
  return Math.min(window.innerHeight * 0.25, 160);
}

/**
 * The id of the heading being read: the last one that has scrolled past the reading line.
 * IntersectionObservers tell when to look again (a heading crossing the line, or entering or
 * leaving the window after a jump); the answer comes from the headings' positions.
 */
function useActiveHeading(ids: readonly string[]): string | null {
  const [active, setActive] = useState<string | null>(null);
  const key = ids.join('\n');
  useEffect(() => {
    const headings = ids
      .map((id) => document.getElementById(id))
      .filter((heading): heading is HTMLElement => heading !== null);
    if (!headings.length || typeof IntersectionObserver === 'undefined') return;
    const update = () => {
      const line = readingLine();
      let current: string | null = null;
      for (const heading of headings) {
        if (heading.getBoundingClientRect().top <= line) current = heading.id;
        else break;
      }
      setActive(current);
    };
    const margin = `0px 0px ${-(window.innerHeight - readingLine())}px 0px`;
    const crossing = new IntersectionObserver(update, { rootMargin: margin, threshold: [0, 1] });
    const inView = new IntersectionObserver(update, { threshold: [0, 1] });
    for (const heading of headings) {
      crossing.observe(heading);
      inView.observe(heading);
    }
    window.addEventListener('hashchange', update);
    update();
    return () => {
      crossing.disconnect();
      inView.disconnect();
      window.removeEventListener('hashchange', update);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for `ids`
  }, [key]);
  return active;
}

/**
 * "On this page": the h2/h3 headings of the page as anchor links (plain `#id` anchors: the
 * browser scrolls, the router sees a hash change and loads nothing), the one being read marked.
 */
export function TableOfContents({ toc, lang }: { toc: readonly TocEntry[]; lang?: string | undefined }) {
  const { t } = useTranslation();
  const active = useActiveHeading(toc.map((entry) => entry.id));
  const link = (entry: TocEntry) => {
    const current = entry.id === active;
    return (
      <a
        href={`#${entry.id}`}
        className={current ? 'active' : undefined}
        aria-current={current ? 'true' : undefined}
        lang={lang}
      >
        {entry.text}
      </a>
    );
  };
  return (
    <nav className="toc" aria-labelledby="toc-title" data-testid="toc">
      <p className="toc-title" id="toc-title">
        {t('content.onThisPage')}
      </p>
      <ol>
        {nestToc(toc).map((node) => (
          <li key={node.id}>
            {link(node)}
            {node.children.length ? (
              <ol>
                {node.children.map((child) => (
                  <li key={child.id}>{link(child)}</li>
                ))}
              </ol>
            ) : null}
          </li>
        ))}
      </ol>
    </nav>
  );
}
