import { loginPath } from './login-path.ts';

/** The nine navigation items of the spec, in its order; labels live in locales/ under `nav.*`. */
export const navigationItems = [
  { key: 'login', path: loginPath, area: 'account' },
  { key: 'registration', path: '/registration', area: 'account' },
  { key: 'author', path: '/author', area: 'main' },
  { key: 'table_of_content', path: '/table-of-content', area: 'main' },
  { key: 'home', path: '/', area: 'main' },
  { key: 'bonus', path: '/bonus', area: 'main' },
  { key: 'terms_apply', path: '/terms-apply', area: 'main' },
  { key: 'play_responsibility', path: '/play-responsibility', area: 'main' },
  { key: 'play', path: null, area: 'action' },
] as const;

export type NavigationKey = (typeof navigationItems)[number]['key'];
