import { useSyncExternalStore } from 'react';
import type { Locale } from '../../contract/locales.ts';
import { useLocale } from '../hooks.ts';

const dateLocales: Record<Locale, string> = { en: 'en-GB', th: 'th-TH' };
const formats = new Map<string, Intl.DateTimeFormat>();

/** `2 March 2026 at 17:05 GMT+7` / `2 มีนาคม 2569 เวลา 17:05 GMT+7` (Thai: Buddhist calendar). */
export function formatDateTime(iso: string, locale: Locale, timeZone = 'UTC'): string {
  const key = `${locale} ${timeZone}`;
  let format = formats.get(key);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat(dateLocales[locale], {
        year: 'numeric',
        month: 'long',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        timeZoneName: 'short',
        timeZone,
      });
    } catch {
      return formatDateTime(iso, locale, 'UTC');
    }
    formats.set(key, format);
  }
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : format.format(date);
}

function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** The reader's time zone does not change while a page is open: nothing to subscribe to. */
const noSubscription = () => () => undefined;
const serverTimeZone = () => 'UTC';

/**
 * A moment in the reader's language and their time zone; the zone is always named. The server
 * writes UTC, and so does the hydrating render, which must match it; React then renders again
 * with the reader's zone. One shown after hydration (Play's outcome, a page opened on the
 * client) is in the reader's zone from its first frame, never UTC for a moment.
 */
export function LocalDateTime({ iso, testId }: { iso: string; testId?: string }) {
  const locale = useLocale();
  const timeZone = useSyncExternalStore(noSubscription, browserTimeZone, serverTimeZone);
  return (
    <time dateTime={iso} data-testid={testId}>
      {formatDateTime(iso, locale, timeZone)}
    </time>
  );
}
