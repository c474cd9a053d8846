import type { IconifyJSON } from '@iconify/types';
import { getIconData, iconToSVG } from '@iconify/utils';
import type { IconData } from './icon-data.ts';

// Its own module: @iconify/utils is only needed for an icon the page did not bring (rare), so it
// is loaded with the first such icon instead of with every page (client/lib/icon-loader.ts).

// Bodies go into the page as markup: anything that could run script is refused (the CSP blocks
// inline handlers too; this keeps a bad upstream answer from even reaching the DOM).
const unsafeBody = /<\s*(script|foreignobject|iframe|object|embed)\b|\bon[a-z]+\s*=|javascript:/i;

/** The icon `name` drawn from an IconifyJSON answer (aliases, rotation and flips applied), or null. */
export function iconFromSet(set: IconifyJSON, name: string): IconData | null {
  const data = getIconData(set, name);
  if (!data || typeof data.body !== 'string' || unsafeBody.test(data.body)) return null;
  const svg = iconToSVG(data);
  const [left, top, width, height] = svg.viewBox;
  if (![left, top, width, height].every(Number.isFinite) || width <= 0 || height <= 0) return null;
  return { body: svg.body, left, top, width, height };
}
