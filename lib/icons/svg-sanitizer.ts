import type { Element, ElementContent, Properties, Root } from 'hast';
import { sanitize } from 'hast-util-sanitize';
import { toHtml } from 'hast-util-to-html';
import { parseDocument } from 'htmlparser2';
import { elements, property, schema, stripped } from './svg-schema.ts';

/** Upstream icon bodies cleaned by hast-util-sanitize and written out again (decision 0027). */

/** Tag names as a browser reads them in an `<svg>`: `LINEARGRADIENT` is `linearGradient`, `SCRIPT` `script`. */
const canonicalNames = new Map([...elements, ...stripped].map((name) => [name.toLowerCase(), name]));
const tagName = (name: string) => canonicalNames.get(name.toLowerCase()) ?? name.toLowerCase();

/** Deeper than any icon nests (tens at most); a deeper body is refused rather than walked. */
const MAX_DEPTH = 64;

class TooDeep extends Error {}

/** A node of htmlparser2's document (its domhandler types, without importing domhandler). */
type ChildNode = ReturnType<typeof parseDocument>['children'][number];

function toHast(nodes: readonly ChildNode[], depth: number): ElementContent[] {
  if (depth > MAX_DEPTH) throw new TooDeep();
  const out: ElementContent[] = [];
  for (const node of nodes) {
    // htmlparser2's node types are an enum of these strings.
    /* eslint-disable @typescript-eslint/no-unsafe-enum-comparison */
    if (node.type === 'text') {
      out.push({ type: 'text', value: node.data });
    } else if (node.type === 'tag' || node.type === 'script' || node.type === 'style') {
      /* eslint-enable @typescript-eslint/no-unsafe-enum-comparison */
      const properties = Object.create(null) as Properties;
      for (const [name, value] of Object.entries(node.attribs)) properties[property(name)] = value;
      const element: Element = {
        type: 'element',
        tagName: tagName(node.name),
        properties,
        children: toHast(node.children, depth + 1),
      };
      out.push(element);
    }
    // Comments, CDATA, processing instructions and doctypes are dropped.
  }
  return out;
}

/** Null when the body is not an SVG fragment or nests deeper than any icon. */
export function sanitizeSvgBody(body: string): string | null {
  let tree: Root;
  try {
    const document = parseDocument(body, { xmlMode: true, decodeEntities: true });
    tree = { type: 'root', children: toHast(document.children, 0) };
  } catch (error) {
    if (error instanceof TooDeep) return null;
    throw error;
  }
  const clean = sanitize(tree, schema);
  return toHtml(clean, { space: 'svg', closeEmptyElements: true, tightSelfClosing: true });
}
