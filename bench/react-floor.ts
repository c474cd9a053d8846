import { parseDocument } from 'htmlparser2';
import { createElement, Fragment, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';

interface ParsedNode {
  type: string;
  name?: string;
  data?: string;
  attribs?: Record<string, string>;
  children?: ParsedNode[];
  startIndex: number | null;
  endIndex: number | null;
}

/** HTML attribute names React spells differently. */
const propNames: Record<string, string> = { class: 'className', for: 'htmlFor' };

function styleObject(css: string): Record<string, string> {
  const style: Record<string, string> = {};
  for (const declaration of css.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon === -1) continue;
    const property = declaration.slice(0, colon).trim();
    const name = property.startsWith('--')
      ? property
      : property.replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase());
    style[name] = declaration.slice(colon + 1).trim();
  }
  return style;
}

/** What the pages insert with `dangerouslySetInnerHTML`: icons' SVG and the Markdown's prose. */
const insertedAsHtml = (node: ParsedNode) =>
  node.name === 'svg' || /(?:^|\s)prose(?:\s|$)/.test(node.attribs?.class ?? '');

function hostElement(source: string, node: ParsedNode): ReactNode {
  if (node.type === 'text') return node.data ?? '';
  if (node.type !== 'tag' || !node.name) return null;
  const props: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(node.attribs ?? {})) {
    props[propNames[name] ?? name] = name === 'style' ? styleObject(value) : value;
  }
  const children = node.children ?? [];
  if (insertedAsHtml(node) && children.length > 0) {
    const html = source.slice(children[0]!.startIndex ?? 0, (children.at(-1)!.endIndex ?? -1) + 1);
    return createElement(node.name, { ...props, dangerouslySetInnerHTML: { __html: html } });
  }
  return createElement(node.name, props, ...children.map((child) => hostElement(source, child)));
}

/**
 * React's floor for a page (decision 0021): its `<body>` as plain elements, no components, rendered
 * per call with `renderToString` between the document's other bytes. The bench serves it.
 */
export function reactFloor(html: string): () => string {
  const bodyStart = html.indexOf('>', html.indexOf('<body')) + 1;
  const dataBlock = html.indexOf('<script', bodyStart);
  const bodyEnd = dataBlock === -1 ? html.lastIndexOf('</body>') : dataBlock;
  if (bodyStart === 0 || bodyEnd < bodyStart) throw new Error('reactFloor: no <body> in the page');
  const before = html.slice(0, bodyStart);
  const after = html.slice(bodyEnd);
  // React's own markup, parsed as written: SVG's camel-cased names (viewBox) kept.
  const body = html.slice(bodyStart, bodyEnd);
  const options = {
    lowerCaseTags: false,
    lowerCaseAttributeNames: false,
    withStartIndices: true,
    withEndIndices: true,
  };
  const top = (parseDocument(body, options) as unknown as ParsedNode).children ?? [];
  // The elements are made per call, as a page's render makes its own.
  return () =>
    before + renderToString(createElement(Fragment, null, ...top.map((node) => hostElement(body, node)))) + after;
}
