import type { Element, ElementContent, Properties, Root } from 'hast';
import { type Schema, sanitize } from 'hast-util-sanitize';
import { toHtml } from 'hast-util-to-html';
import { parseDocument } from 'htmlparser2';
import { find, svg } from 'property-information';

/**
 * Upstream icon bodies cleaned by hast-util-sanitize and written out again, so the browser reads
 * only what the serialiser wrote (decision 0027). Imported only when an upstream answer arrives.
 */

/** Elements icons are drawn with. Not: script, style, foreignObject, a, image, feImage, set, svg, use of anything but a local id. */
const elements = [
  'g',
  'defs',
  'symbol',
  'use',
  'path',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'rect',
  'text',
  'tspan',
  'textPath',
  'clipPath',
  'mask',
  'pattern',
  'marker',
  'linearGradient',
  'radialGradient',
  'stop',
  'filter',
  'feBlend',
  'feColorMatrix',
  'feComponentTransfer',
  'feComposite',
  'feConvolveMatrix',
  'feDiffuseLighting',
  'feDisplacementMap',
  'feDistantLight',
  'feDropShadow',
  'feFlood',
  'feFuncA',
  'feFuncB',
  'feFuncG',
  'feFuncR',
  'feGaussianBlur',
  'feMerge',
  'feMergeNode',
  'feMorphology',
  'feOffset',
  'fePointLight',
  'feSpecularLighting',
  'feSpotLight',
  'feTile',
  'feTurbulence',
  'animate',
  'animateTransform',
  'animateMotion',
  'mpath',
];

/** Elements dropped with everything inside them (other unknown elements are unwrapped: their allowed children stay). */
const stripped = [
  'script',
  'style',
  'foreignObject',
  'title',
  'desc',
  'metadata',
  'iframe',
  'noscript',
  'template',
  'textarea',
  'xmp',
  'math',
];

/**
 * Attribute values: no backslash (a CSS escape can spell `url(`), and no parentheses except a
 * local `url(#id)`, a colour function or a transform function. Everything else an icon writes
 * (numbers, path data, colours, keywords, `;`-separated animation values) passes.
 */
const valueGrammar = String.raw`(?:[^()\\]|url\(\s*['"]?#[\w.:-]+['"]?\s*\)|(?:rgba?|hsla?|matrix|translate|scale|rotate|skewX|skewY)\([^()\\]*\))*`;
const safeValue = new RegExp(`^${valueGrammar}$`, 'i');

/** What `href` / `xlink:href` may point at: an element of the same icon. */
const localFragment = /^#[\w.:-]+$/;
/** Ids as icon sets write them (`SVGq1vnPeix`, `circleFlagsAa0`). */
const idValue = /^[A-Za-z][\w-]*$/;

/** `style`: only declarations of these properties, values in the grammar above without `url(`. */
const styleProperties = [
  'mask-type',
  'mix-blend-mode',
  'isolation',
  'opacity',
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-opacity',
  'stroke-width',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-miterlimit',
  'color',
  'stop-color',
  'stop-opacity',
  'display',
  'visibility',
  'transform-origin',
  'transform-box',
  'paint-order',
  'vector-effect',
  'clip-rule',
  'shape-rendering',
  'color-interpolation-filters',
];
const styleValue = String.raw`(?:[^()\\;:"'<>]|(?:rgba?|hsla?)\([^()\\;:]*\))+`;
const styleGrammar = new RegExp(String.raw`^\s*(?:(?:${styleProperties.join('|')})\s*:${styleValue}(?:;\s*|$))+$`, 'i');

/** Attributes an animation may change: never `href`, an event handler or `style`. */
const animatable = [
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'fx',
  'fy',
  'width',
  'height',
  'd',
  'points',
  'transform',
  'opacity',
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-opacity',
  'stroke-width',
  'stroke-dasharray',
  'stroke-dashoffset',
  'offset',
  'stop-color',
  'stop-opacity',
  'visibility',
  'display',
  'stdDeviation',
  'dx',
  'dy',
  'startOffset',
  'pathLength',
];

/** Attributes any allowed element may carry (presentation and geometry), values in the grammar above. */
const common = [
  'class',
  'transform',
  'opacity',
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-opacity',
  'stroke-width',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-miterlimit',
  'clip-path',
  'clip-rule',
  'mask',
  'filter',
  'color',
  'display',
  'visibility',
  'overflow',
  'paint-order',
  'vector-effect',
  'shape-rendering',
  'color-interpolation',
  'color-interpolation-filters',
  'mix-blend-mode',
  'isolation',
  'marker-start',
  'marker-mid',
  'marker-end',
  'stop-color',
  'stop-opacity',
  'flood-color',
  'flood-opacity',
  'lighting-color',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'letter-spacing',
  'xml:space',
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'fx',
  'fy',
  'fr',
  'width',
  'height',
  'd',
  'points',
  'pathLength',
  'dx',
  'dy',
  'rotate',
  'textLength',
  'lengthAdjust',
  'startOffset',
  'viewBox',
  'preserveAspectRatio',
  'refX',
  'refY',
  'markerWidth',
  'markerHeight',
  'markerUnits',
  'orient',
  'offset',
  'gradientUnits',
  'gradientTransform',
  'spreadMethod',
  'patternUnits',
  'patternContentUnits',
  'patternTransform',
  'clipPathUnits',
  'maskUnits',
  'maskContentUnits',
  'filterUnits',
  'primitiveUnits',
  'in',
  'in2',
  'result',
  'stdDeviation',
  'values',
  'type',
  'mode',
  'operator',
  'k1',
  'k2',
  'k3',
  'k4',
  'scale',
  'xChannelSelector',
  'yChannelSelector',
  'baseFrequency',
  'numOctaves',
  'seed',
  'stitchTiles',
  'radius',
  'order',
  'kernelMatrix',
  'divisor',
  'bias',
  'targetX',
  'targetY',
  'edgeMode',
  'preserveAlpha',
  'surfaceScale',
  'diffuseConstant',
  'specularConstant',
  'specularExponent',
  'kernelUnitLength',
  'azimuth',
  'elevation',
  'pointsAtX',
  'pointsAtY',
  'pointsAtZ',
  'limitingConeAngle',
  'z',
  'tableValues',
  'slope',
  'intercept',
  'amplitude',
  'exponent',
];

/** Animation timing (on animate, animateTransform, animateMotion). */
const timing = [
  'begin',
  'dur',
  'end',
  'min',
  'max',
  'restart',
  'repeatCount',
  'repeatDur',
  'calcMode',
  'values',
  'keyTimes',
  'keySplines',
  'keyPoints',
  'from',
  'to',
  'by',
  'additive',
  'accumulate',
  'type',
  'path',
  'rotate',
  'fill',
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

/**
 * Null when the body is not an SVG fragment or nests deeper than any icon. A body of plain
 * drawing elements comes out as it went in.
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
