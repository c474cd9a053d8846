import Bowser from 'bowser';
import en from '../locales/en.json' with { type: 'json' };
import th from '../locales/th.json' with { type: 'json' };
import { defaultLocale, type Locale } from '../contract/locales.ts';

const phrases: Record<Locale, { browserOnOs: string; unknown: string }> = { en: en.device, th: th.device };

/**
 * A device in words for a person, from the User-Agent a session or play session recorded:
 * "Chrome on Android", "Safari on iOS", "Firefox on Windows" ("Chrome บน Android" in Thai).
 * Browser and system names are proper nouns and stay as they are; only the joining words and
 * "unknown device" are translated (locales `device.*`). Versions are left out on purpose: a
 * player recognises "Chrome on Android", not "Chrome 126.0.6478.71 on Android 14".
 */
export function deviceName(userAgent: string | null | undefined, locale: Locale = defaultLocale): string {
  const words = phrases[locale] ?? phrases[defaultLocale];
  const ua = userAgent?.trim();
  if (!ua) return words.unknown;
  const { browser, os } = Bowser.parse(ua);
  const browserName = browser.name || '';
  const osName = os.name || '';
  if (browserName && osName) return words.browserOnOs.replace('{{browser}}', browserName).replace('{{os}}', osName);
  return browserName || osName || words.unknown;
}
