import type { Element, ElementContent, Properties, Root } from 'hast';
import { type Schema, sanitize } from 'hast-util-sanitize';
import { toHtml } from 'hast-util-to-html';
import { parseDocument } from 'htmlparser2';
import { find, svg } from 'property-information';

/**
 * Icon bodies from the upstream, cut down to what icons draw with before they reach a browser
 * (which inserts them into an `<svg>` as markup). The body is parsed as the SVG fragment it is
 * (htmlparser2 in XML mode), turned into a hast tree, cleaned by hast-util-sanitize with the
 * schema below and written out again by hast-util-to-html in the SVG space. What the browser
 * reads is only what that serialiser wrote: allowed SVG elements, allowed attributes with their
 * values escaped, text escaped; never a comment, CDATA, a raw-text element or a name the parser
 * guessed differently. See docs/decisions/0027-upstream-icon-limits-and-svg-sanitising.md.
 *
 * This module is imported only when an upstream answer arrives (lib/icons/upstream.ts), so a
 * replica that serves its installed sets never loads it.
 */

/** Elements icons are drawn with. Not: script, style, foreignObject, a, image, feImage, set, svg, use of anything but a local id. */
const elements = [
  'g', 'defs', 'symbol', 'use', 'path', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'rect',
  'text', 'tspan', 'textPath', 'clipPath', 'mask', 'pattern', 'marker',
  'linearGradient', 'radialGradient', 'stop',
  'filter', 'feBlend', 'feColorMatrix', 'feComponentTransfer', 'feComposite', 'feConvolveMatrix',
  'feDiffuseLighting', 'feDisplacementMap', 'feDistantLight', 'feDropShadow', 'feFlood', 'feFuncA',
  'feFuncB', 'feFuncG', 'feFuncR', 'feGaussianBlur', 'feMerge', 'feMergeNode', 'feMorphology',
  'feOffset', 'fePointLight', 'feSpecularLighting', 'feSpotLight', 'feTile', 'feTurbulence',
  'animate', 'animateTransform', 'animateMotion', 'mpath',
];

/** Elements dropped with everything inside them (other unknown elements are unwrapped: their allowed children stay). */
const stripped = ['script', 'style', 'foreignObject', 'title', 'desc', 'metadata', 'iframe', 'noscript', 'template', 'textarea', 'xmp', 'math'];

/**
 * Attribute values: no backslash (a CSS escape can spell `url(`), and no parentheses except a
 * local `url(#id)`, a colour function or a transform function. Everything else an icon writes
 * (numbers, path data, colours, keywords, `;`-separated animation values) passes.
 */
const valueGrammar = String.raw`(?:[^()\\]|url\(\s*['"]?#[\w.:-]+['"]?\s*\)|(?:rgba?|hsla?|matrix|translate|scale|rotate|skewX|skewY)\([^()\\]*\))*`;
const safeValue = new RegExp(`^${valueGrammar}$`, 'i');

/** What `href` / `xlink:href` may point at: an element of the same icon. */
const localFragment = /^#[\w.:-]+$/;
/** Ids as icon sets write them (`SVGq1vnPeix`, `circleFlagsAa0`): referable by `url(#id)` and `begin="id.end"`. */
const idValue = /^[A-Za-z][\w-]*$/;

/**
 * `style`: only `property: value` declarations of the listed properties, values in the grammar
 * above without any `url(`, and nothing else (no `@import`, no comments, no `expression()`).
 */
const styleProperties = [
  'mask-type', 'mix-blend-mode', 'isolation', 'opacity', 'fill', 'fill-opacity', 'fill-rule', 'stroke',
  'stroke-opacity', 'stroke-width', 'stroke-linecap', 'stroke-linejoin', 'stroke-dasharray',
  'stroke-dashoffset', 'stroke-miterlimit', 'color', 'stop-color', 'stop-opacity', 'display',
  'visibility', 'transform-origin', 'transform-box', 'paint-order', 'vector-effect', 'clip-rule',
  'shape-rendering', 'color-interpolation-filters',
];
const styleValue = String.raw`(?:[^()\\;:"'<>]|(?:rgba?|hsla?)\([^()\\;:]*\))+`;
const styleGrammar = new RegExp(String.raw`^\s*(?:(?:${styleProperties.join('|')})\s*:${styleValue}(?:;\s*|$))+$`, 'i');

/**
 * Attributes an animation may change: geometry, paint and opacity, never `href`, an event
 * handler or `style`. The animated values obey the value grammar like any attribute value.
 */
const animatable = [
  'x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'fx', 'fy', 'width', 'height', 'd',
  'points', 'transform', 'opacity', 'fill', 'fill-opacity', 'stroke', 'stroke-opacity',
  'stroke-width', 'stroke-dasharray', 'stroke-dashoffset', 'offset', 'stop-color', 'stop-opacity',
  'visibility', 'display', 'stdDeviation', 'dx', 'dy', 'startOffset', 'pathLength',
];

/** Attributes any allowed element may carry (presentation and geometry), values in the grammar above. */
const common = [
  'class', 'transform', 'opacity', 'fill', 'fill-opacity', 'fill-rule', 'stroke', 'stroke-opacity',
  'stroke-width', 'stroke-linecap', 'stroke-linejoin', 'stroke-dasharray', 'stroke-dashoffset',
  'stroke-miterlimit', 'clip-path', 'clip-rule', 'mask', 'filter', 'color', 'display', 'visibility',
  'overflow', 'paint-order', 'vector-effect', 'shape-rendering', 'color-interpolation',
  'color-interpolation-filters', 'mix-blend-mode', 'isolation', 'marker-start', 'marker-mid',
  'marker-end', 'stop-color', 'stop-opacity', 'flood-color', 'flood-opacity', 'lighting-color',
  'font-family', 'font-size', 'font-weight', 'font-style', 'text-anchor', 'dominant-baseline',
  'letter-spacing', 'xml:space',
  // Geometry.
  'x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'fx', 'fy', 'fr', 'width', 'height',
  'd', 'points', 'pathLength', 'dx', 'dy', 'rotate', 'textLength', 'lengthAdjust', 'startOffset',
  'viewBox', 'preserveAspectRatio', 'refX', 'refY', 'markerWidth', 'markerHeight', 'markerUnits',
  'orient',
  // Paint servers, clips, masks, patterns.
  'offset', 'gradientUnits', 'gradientTransform', 'spreadMethod', 'patternUnits',
  'patternContentUnits', 'patternTransform', 'clipPathUnits', 'maskUnits', 'maskContentUnits',
  // Filters.
  'filterUnits', 'primitiveUnits', 'in', 'in2', 'result', 'stdDeviation', 'values', 'type',
  'mode', 'operator', 'k1', 'k2', 'k3', 'k4', 'scale', 'xChannelSelector', 'yChannelSelector',
  'baseFrequency', 'numOctaves', 'seed', 'stitchTiles', 'radius', 'order', 'kernelMatrix',
  'divisor', 'bias', 'targetX', 'targetY', 'edgeMode', 'preserveAlpha', 'surfaceScale',
  'diffuseConstant', 'specularConstant', 'specularExponent', 'kernelUnitLength', 'azimuth',
  'elevation', 'pointsAtX', 'pointsAtY', 'pointsAtZ', 'limitingConeAngle', 'z', 'tableValues',
  'slope', 'intercept', 'amplitude', 'exponent',
];

/** Animation timing (on animate, animateTransform, animateMotion). */
const timing = [
  'begin', 'dur', 'end', 'min', 'max', 'restart', 'repeatCount', 'repeatDur', 'calcMode', 'values',
  'keyTimes', 'keySplines', 'keyPoints', 'from', 'to', 'by', 'additive', 'accumulate', 'type',
  'path', 'rotate', 'fill',
];

/** hast keys attributes by property name (`stroke-linecap` is `strokeLineCap`, `xlink:href` is `xLinkHref`). */
const property = (attribute: string) => find(svg, attribute).property;
const withSafeValue = (attribute: string): [string, RegExp] => [property(attribute), safeValue];

const animationAttributes = [
  ...timing.map(withSafeValue),
  [property('attributeName'), ...animatable] as [string, ...string[]],
  [property('attributeType'), 'XML', 'CSS', 'auto'] as [string, ...string[]],
];
const localReference: Array<[string, RegExp]> = [
  [property('href'), localFragment],
  [property('xlink:href'), localFragment],
];

const schema: Schema = {
  tagNames: elements,
  strip: stripped,
  attributes: {
    '*': [...common.map(withSafeValue), [property('id'), idValue], [property('style'), styleGrammar]],
    animate: animationAttributes,
    animateTransform: animationAttributes,
    animateMotion: animationAttributes,
    use: localReference,
    mpath: localReference,
    textPath: localReference,
    linearGradient: localReference,
    radialGradient: localReference,
    pattern: localReference,
    filter: localReference,
  },
  // Ids stay as the icon wrote them: `url(#id)`, `href="#id"` and `begin="id.end"` point at them.
  clobber: [],
  // `href` is limited to a local `#fragment` by its value pattern above.
  protocols: {},
  ancestors: {},
  required: {},
  allowComments: false,
  allowDoctypes: false,
};

/**
 * Tag names as a browser reads them inside an `<svg>`: case-insensitive, SVG's mixed-case names
 * restored (`LINEARGRADIENT` is `linearGradient`, `SCRIPT` is `script`, and stripped as such).
 */
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
    if (node.type === 'text') {
      out.push({ type: 'text', value: node.data });
    } else if (node.type === 'tag' || node.type === 'script' || node.type === 'style') {
      const properties = Object.create(null) as Properties;
      for (const [name, value] of Object.entries(node.attribs)) properties[property(name)] = value;
      const element: Element = { type: 'element', tagName: tagName(node.name), properties, children: toHast(node.children, depth + 1) };
      out.push(element);
    }
    // Comments, CDATA, processing instructions and doctypes are dropped.
  }
  return out;
}

/**
 * The icon body with only what icons are drawn with, or null when it cannot be read as an SVG
 * fragment (or nests deeper than any icon). A body of plain drawing elements comes out as it went
 * in (attributes in the same order, self-closing empty elements).
 */
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
