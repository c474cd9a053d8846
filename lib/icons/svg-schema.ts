import type { Schema } from 'hast-util-sanitize';
import { find, svg } from 'property-information';
import { animatable, common, timing } from './svg-attributes.ts';

// What upstream icon bodies may hold (lib/icons/svg-sanitizer.ts applies it; decision 0027).

/** Elements icons are drawn with. Not: script, style, foreignObject, a, image, feImage, set, svg, use of anything but a local id. */
export const elements = [
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
export const stripped = [
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

/** hast keys attributes by property name (`stroke-linecap` is `strokeLineCap`, `xlink:href` is `xLinkHref`). */
export const property = (attribute: string) => find(svg, attribute).property;
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

export const schema: Schema = {
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
