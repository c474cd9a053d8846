import type { NavigationKey } from './navigation.ts';
import type { Locale } from './locales.ts';

/**
 * Every icon the server may render, as `collection:name`. The server resolves this list once at
 * start from the installed `@iconify-json/*` sets (`app.icons.load`), renders these icons inline
 * and ships their data in the page (`window.__ASDAS__.icons`) so hydration draws the same SVG.
 *
 * An icon that is not listed still works: the browser fetches it from `/api/_nuxt_icon/` when it
 * is first shown (client/lib/icon-loader.ts). Keep this list to icons that are on the page when it
 * loads; icons that only appear after an interaction can stay out of it (see back-to-top.tsx).
 */
export const appIcons = [
  'mdi:login',
  'mdi:account-plus',
  'mdi:account-edit',
  'mdi:table-of-contents',
  'mdi:home',
  'mdi:gift',
  'mdi:file-document',
  'mdi:hand-heart',
  'mdi:play',
  'mdi:menu',
  'mdi:close',
  'mdi:account-circle',
  'circle-flags:th',
  'circle-flags:gb',
] as const;

export type AppIconName = (typeof appIcons)[number];

/** The icon beside each navigation item. */
export const navigationIcons = {
  login: 'mdi:login',
  registration: 'mdi:account-plus',
  author: 'mdi:account-edit',
  table_of_content: 'mdi:table-of-contents',
  home: 'mdi:home',
  bonus: 'mdi:gift',
  terms_apply: 'mdi:file-document',
  play_responsibility: 'mdi:hand-heart',
  play: 'mdi:play',
} as const satisfies Record<NavigationKey, AppIconName>;

/** The flag the language switch shows for the language it switches to. */
export const languageIcons = {
  en: 'circle-flags:gb',
  th: 'circle-flags:th',
} as const satisfies Record<Locale, AppIconName>;
