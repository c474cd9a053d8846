import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from '../i18n.ts';
import { isFlashCode, type FlashCode } from '../../contract/flash.ts';
import { takeFlash } from '../lib/flash.ts';
import { useRuntime } from '../runtime.tsx';
import { Icon } from './icon.tsx';

/** A message about something the visitor did (Play refused, signed in ...), shown at the top of the page. */
export interface Notice {
  /** `error` is announced at once (role="alert"); the others politely (role="status"). */
  tone: 'success' | 'error';
  content: ReactNode;
  testId?: string;
  /** What kind of message it is, for styles and tests (`data-kind`). */
  kind?: string;
}

interface NoticeState {
  notice: Notice | null;
  show: (notice: Notice | null) => void;
}

const NoticeContext = createContext<NoticeState>({ notice: null, show: () => undefined });

/** Shows a notice at the top of the page's main area (never inside the header); null removes it. */
export function useShowNotice(): (notice: Notice | null) => void {
  return useContext(NoticeContext).show;
}

function FlashMessage({ code }: { code: FlashCode }) {
  const { t } = useTranslation();
  return <>{t(`notice.${code}`)}</>;
}

/**
 * Holds the page's one notice. It lasts until it is dismissed or the visitor moves to another
 * page. A flash (the one-shot "You are signed in" after a form) comes from the server render (a
 * cookie read once: pages posted without JavaScript) or from the browser's own form handling
 * (client/lib/flash.ts), and becomes the notice of the page it lands on.
 */
export function NoticeProvider({ children }: { children: ReactNode }) {
  const { flash } = useRuntime();
  const { key } = useLocation();
  const [notice, setNotice] = useState<Notice | null>(() =>
    isFlashCode(flash) ? { tone: 'success', content: <FlashMessage code={flash} />, testId: 'flash-notice' } : null,
  );
  const shownAt = useRef(key);

  useEffect(() => {
    if (shownAt.current === key) return;
    shownAt.current = key;
    const next = takeFlash();
    setNotice(next ? { tone: 'success', content: <FlashMessage code={next} />, testId: 'flash-notice' } : null);
  }, [key]);

  const value = useMemo(() => ({ notice, show: setNotice }), [notice]);
  return <NoticeContext.Provider value={value}>{children}</NoticeContext.Provider>;
}

/** Where notices appear: the top of <main>, with a button that dismisses them. */
export function NoticeArea() {
  const { t } = useTranslation();
  const { notice, show } = useContext(NoticeContext);
  const { pathname, search } = useLocation();
  if (!notice) return null;
  return (
    <div
      className={`notice notice-${notice.tone}`}
      role={notice.tone === 'error' ? 'alert' : 'status'}
      data-testid={notice.testId ?? 'notice'}
      data-kind={notice.kind}
    >
      <div className="notice-text">{notice.content}</div>
      {/* A link to this same page: without JavaScript it dismisses by loading the page again
          (a flash is read once); with it, the notice simply goes. */}
      <a
        href={pathname + search}
        className="notice-dismiss"
        onClick={(event) => {
          event.preventDefault();
          show(null);
        }}
        data-testid="notice-dismiss"
      >
        <Icon name="mdi:close" />
        <span className="visually-hidden">{t('notice.dismiss')}</span>
      </a>
    </div>
  );
}
