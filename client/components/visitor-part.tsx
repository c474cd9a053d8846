import { createContext, useContext, type ComponentType } from 'react';

/**
 * The parts of a shared page that differ by visitor (the header's account links, the home page's
 * third card). A signed-in visitor's page is the page drawn once for everyone with these parts
 * drawn for them (client/router/shared-render.server.tsx, decision 0037); anything else on such a
 * page must look the same to every visitor.
 */
export type VisitorPartName = 'account-navigation' | 'home-account-entry';

/** `inline` draws the part; `marker` (the server's shared render) leaves a marker in its place. */
export const VisitorPartMode = createContext<'inline' | 'marker'>('inline');

export function VisitorPart({ name, part: Part }: { name: VisitorPartName; part: ComponentType }) {
  if (useContext(VisitorPartMode) === 'marker') return <template data-visitor-part={name} />;
  return <Part />;
}
