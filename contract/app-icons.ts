import type { NavigationKey } from './navigation.ts';

/**
 * Icons resolved once at start and shipped in every page, so hydration draws the same SVG. Keep
 * it to icons shown when a page loads: others are fetched when first shown (client/lib/icon-loader.ts).
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
  'mdi:logout',
  'mdi:translate',
] as const;

export type AppIconName = (typeof appIcons)[number];

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

/**
 * The language switch's mark, the same for both languages: a language is not a country, so no flag
 * (English is not the United Kingdom's alone); the label names the language in its own words.
 */
export const languageSwitchIcon = 'mdi:translate' satisfies AppIconName;
