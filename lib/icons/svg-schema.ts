import type { Schema } from 'hast-util-sanitize';
import { find, svg } from 'property-information';
import { svgElementAttributes } from 'svg-element-attributes';

// What upstream icon bodies may hold (lib/icons/svg-sanitizer.ts applies it; decision 0027).

const words = (list: string) => list.trim().split(/\s+/);

/** Elements icons are drawn with. Not: script, style, foreignObject, a, image, feImage, set, svg. */
export const elements = words(`
  g defs symbol use path circle ellipse line polyline polygon rect text tspan textPath clipPath mask
  pattern marker linearGradient radialGradient stop filter feBlend feColorMatrix feComponentTransfer
  feComposite feConvolveMatrix feDiffuseLighting feDisplacementMap feDistantLight feDropShadow feFlood
  feFuncA feFuncB feFuncG feFuncR feGaussianBlur feMerge feMergeNode feMorphology feOffset fePointLight
  feSpecularLighting feSpotLight feTile feTurbulence animate animateTransform animateMotion mpath`);

/** Dropped with everything inside them (other unknown elements are unwrapped: their allowed children stay). */
export const stripped = words(
  'script style foreignObject title desc metadata iframe noscript template textarea xmp math',
);

/**
 * Attribute values: no backslash (a CSS escape can spell `url(`), no parentheses but a local
 * `url(#id)`, a colour or a transform function. Numbers, paths, colours and keywords pass.
 */
const valueGrammar = String.raw`(?:[^()\\]|url\(\s*['"]?#[\w.:-]+['"]?\s*\)|(?:rgba?|hsla?|matrix|translate|scale|rotate|skewX|skewY)\([^()\\]*\))*`;
const safeValue = new RegExp(`^${valueGrammar}$`, 'i');

/** What `href` / `xlink:href` may point at: an element of the same icon. */
const localFragment = /^#[\w.:-]+$/;
/** Ids as icon sets write them (`SVGq1vnPeix`, `circleFlagsAa0`). */
const idValue = /^[A-Za-z][\w-]*$/;
/** An animation never changes a reference, an event handler or the style. */
const animatable = /^(?!(?:xlink:)?href$|style$|on)[a-z][\w-]*$/i;

/** `style`: only declarations of these properties, values in the grammar above without `url(`. */
const styleProperties = words(`
  mask-type mix-blend-mode isolation opacity fill fill-opacity fill-rule stroke stroke-opacity stroke-width
  stroke-linecap stroke-linejoin stroke-dasharray stroke-dashoffset stroke-miterlimit color stop-color
  stop-opacity display visibility transform-origin transform-box paint-order vector-effect clip-rule
  shape-rendering color-interpolation-filters`);
const styleValue = String.raw`(?:[^()\\;:"'<>]|(?:rgba?|hsla?)\([^()\\;:]*\))+`;
const styleGrammar = new RegExp(String.raw`^\s*(?:(?:${styleProperties.join('|')})\s*:${styleValue}(?:;\s*|$))+$`, 'i');

/** hast keys attributes by property name (`stroke-linecap` is `strokeLineCap`, `xlink:href` is `xLinkHref`). */
export const property = (attribute: string) => find(svg, attribute).property;

// The specifications' attributes of each element (svg-element-attributes), every value in the
// grammar above; but these, which have a rule of their own or would add tab stops to the page.
const ownRule = new Set(words('href id style attributeName tabindex focusable'));
const extra = words('xml:space mask-type fr transform-origin mix-blend-mode isolation');

const rule = (name: string, value: RegExp): [string, RegExp] => [property(name), value];

function attributesOf(element: string): Array<[string, RegExp]> {
  const known = svgElementAttributes[element] ?? [];
  const rules = known.filter((name) => !ownRule.has(name)).map((name) => rule(name, safeValue));
  if (known.includes('href')) rules.push(rule('href', localFragment), rule('xlink:href', localFragment));
  if (known.includes('attributeName')) rules.push(rule('attributeName', animatable));
  return rules;
}

export const schema: Schema = {
  tagNames: elements,
  strip: stripped,
  attributes: {
    ...Object.fromEntries(elements.map((element) => [element, attributesOf(element)])),
    '*': [
      ...attributesOf('*'),
      ...extra.map((name) => rule(name, safeValue)),
      rule('id', idValue),
      rule('style', styleGrammar),
    ],
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
