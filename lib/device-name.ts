import Bowser from 'bowser';
import { defaultLocale, type Locale } from '../contract/locales.ts';
import { serverT } from './translations.ts';

/**
 * "Chrome on Android" from a User-Agent, without versions: what a person recognises. Only the
 * joining words are translated (locales `device.*`).
 */
export function deviceName(userAgent: string | null | undefined, locale: Locale = defaultLocale): string {
  const t = serverT(locale);
  const ua = userAgent?.trim();
  if (!ua) return t('device.unknown');
  const { browser, os } = Bowser.parse(ua);
  const browserName = browser.name || '';
  const osName = os.name || '';
  if (browserName && osName) return t('device.browserOnOs', { browser: browserName, os: osName });
  return browserName || osName || t('device.unknown');
}
