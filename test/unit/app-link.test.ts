import { createElement as h, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { Link, MemoryRouter, NavLink, Route, Routes, type To } from 'react-router';
import t from 'tap';
import { AppLink, AppNavLink, LinkWithoutPrefetch } from '../../client/components/app-link.tsx';
import { RuntimeContext, type AppRuntime } from '../../client/runtime.tsx';

// The site's links are drawn without react-router's Link and NavLink (their framework-mode
// prefetch code would be in every page's first load): they must draw the same markup for every
// kind of `to` and option, plain paths (AppLink's own `<a>`) and the rest (RouterAnchor).
const tos: To[] = [
  'x',
  '../y',
  '.',
  '',
  '?q=1',
  '#h',
  '/th/asdas',
  '/a/./b',
  '/a b',
  '/ก',
  '/th/asdas/rtp-explained/more',
  { pathname: '/a', search: '?b=1', hash: '#c' },
  { search: '?only' },
  'https://example.com/x',
  '//example.com/y',
  'mailto:a@b.c',
];
const options: Record<string, unknown>[] = [
  {},
  { className: 'c', title: 't' },
  { reloadDocument: true },
  { relative: 'path' },
  { state: { a: 1 }, replace: true },
  { discover: 'none' },
  { target: '_blank' },
  { end: true },
  { caseSensitive: true },
];
const runtime = { isBot: false } as AppRuntime;

function render(element: ReturnType<typeof h>): string {
  const page = h(Routes, null, h(Route, { path: '/th/asdas/:slug/*', element }));
  return renderToString(
    h(
      RuntimeContext.Provider,
      { value: runtime },
      h(MemoryRouter, { initialEntries: ['/th/asdas/rtp-explained/'] }, page),
    ),
  );
}

t.test('AppLink, LinkWithoutPrefetch and AppNavLink draw what Link and NavLink draw', async (t) => {
  const pairs: [string, ComponentType<any>, ComponentType<any>][] = [
    ['AppLink', Link, AppLink],
    ['LinkWithoutPrefetch', Link, LinkWithoutPrefetch],
    ['AppNavLink', NavLink, AppNavLink],
  ];
  const activeClass = ({ isActive, isPending }: { isActive: boolean; isPending: boolean }) =>
    `link-${isActive}-${isPending}`;
  for (const to of tos) {
    for (const option of options) {
      for (const [name, theirs, ours] of pairs) {
        const props = { to, ...(theirs === Link ? { ...option, end: undefined, caseSensitive: undefined } : option) };
        t.equal(
          render(h(ours, props, 'text')),
          render(h(theirs, props, 'text')),
          `${name} ${JSON.stringify(to)} ${JSON.stringify(option)}`,
        );
      }
      const props = { to, ...option, className: activeClass };
      t.equal(
        render(h(AppNavLink, props, 'text')),
        render(h(NavLink, props, 'text')),
        `AppNavLink, className function, ${JSON.stringify(to)} ${JSON.stringify(option)}`,
      );
    }
  }
});
