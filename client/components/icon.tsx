import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { IconData, IconDataMap, IconLoader } from '../lib/icon-loader.ts';
import { lazyIconLoader } from '../lib/lazy-icon-loader.ts';

interface IconContextValue {
  /** Icons known when the page renders (contract/app-icons.ts), identical on the server and in the browser. */
  icons: IconDataMap;
  /** Fetches the others, in the browser only (effects never run on the server). */
  loader: IconLoader;
}

const noIcons: IconDataMap = {};
const defaultLoader = lazyIconLoader();
const IconContext = createContext<IconContextValue>({ icons: noIcons, loader: defaultLoader });

export function IconProvider({
  icons,
  loader,
  children,
}: {
  icons?: IconDataMap;
  loader?: IconLoader;
  children: ReactNode;
}) {
  const value = useMemo(() => ({ icons: icons ?? noIcons, loader: loader ?? defaultLoader }), [icons, loader]);
  return <IconContext.Provider value={value}>{children}</IconContext.Provider>;
}

export function useIconLoader(): IconLoader {
  return useContext(IconContext).loader;
}

export interface IconProps {
  /** `collection:name`, e.g. `mdi:home`. */
  name: string;
  /** The icon's height (and width, for a square icon): a CSS length or pixels. Default `1em`. */
  size?: number | string;
  /** An icon that means something on its own gets a label; without one it is decoration (aria-hidden). */
  label?: string;
  className?: string;
}

/** `size` scaled for a non-square icon: `1em` at 4:3 is `1.33em`. */
function scaled(size: number | string, ratio: number): number | string {
  if (ratio === 1) return size;
  const round = (value: number) => Math.round(value * 1000) / 1000;
  if (typeof size === 'number') return round(size * ratio);
  const match = /^(\d*\.?\d+)([a-z%]*)$/i.exec(size.trim());
  return match ? `${round(Number(match[1]) * ratio)}${match[2]}` : size;
}

/**
 * An Iconify icon as inline SVG. Icons the page knows at render time (contract/app-icons.ts) are in the
 * server HTML; others are fetched once in the browser and show an empty box of the same size
 * until they arrive, or for good when they do not exist.
 */
export function Icon({ name, size = '1em', label, className }: IconProps) {
  const { icons, loader } = useContext(IconContext);
  const known = icons[name];
  // Only icons fetched earlier in this visit are found here; during hydration the cache is empty,
  // so the first render matches the server's.
  const [fetched, setFetched] = useState<{ name: string; data: IconData | null | undefined }>(() => ({
    name,
    data: known ? undefined : loader.peek(name),
  }));

  useEffect(() => {
    if (known) return;
    let current = true;
    void loader.load(name).then((data) => {
      if (current) setFetched({ name, data });
    });
    return () => {
      current = false;
    };
  }, [name, known, loader]);

  const data = known ?? (fetched.name === name ? fetched.data : loader.peek(name));
  const a11y = label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true };
  const classes = className ? `icon ${className}` : 'icon';

  if (!data) {
    return (
      <svg
        xmlns="http://www.w3.org/2000/svg"
        width={size}
        height={size}
        className={classes}
        data-icon={name}
        data-icon-state={data === null ? 'missing' : 'loading'}
        focusable="false"
        {...a11y}
      />
    );
  }
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={scaled(size, data.width / data.height)}
      height={size}
      viewBox={`${data.left} ${data.top} ${data.width} ${data.height}`}
      className={classes}
      data-icon={name}
      focusable="false"
      {...a11y}
      dangerouslySetInnerHTML={{ __html: data.body }}
    />
  );
}
