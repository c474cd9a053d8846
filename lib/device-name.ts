import Bowser from 'bowser';
import en from '../locales/en.json' with { type: 'json' };
import th from '../locales/th.json' with { type: 'json' };
import { defaultLocale, type Locale } from '../contract/locales.ts';

const phrases: Record<Locale, { browserOnOs: string; unknown: string }> = { en: en.device, th: th.device };

/**
 * "Chrome on Android" from a User-Agent, without versions: what a person recognises. Only the
 * joining words are translated (locales `device.*`).
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
