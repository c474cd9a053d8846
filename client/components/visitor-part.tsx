import { createContext, useContext, type ComponentType } from 'react';

/** What differs by visitor on a shared page; everything else must look the same to all (decision 0037). */
export type VisitorPartName = 'account-navigation' | 'home-account-entry';

/** `inline` draws the part; `marker` (the server's shared render) leaves a marker in its place. */
export const VisitorPartMode = createContext<'inline' | 'marker'>('inline');

export function VisitorPart({ name, part: Part }: { name: VisitorPartName; part: ComponentType }) {
  if (useContext(VisitorPartMode) === 'marker') return <template data-visitor-part={name} />;
  return <Part />;
}
