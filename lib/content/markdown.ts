import type { Element, Root } from 'hast';
import { toString } from 'hast-util-to-string';
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';
import rehypeSlug from 'rehype-slug';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import type { Locale } from '../../contract/locales.ts';
import { readingMinutes } from './reading-time.ts';
import type { TocEntry } from '../../contract/content.ts';

export interface RenderedMarkdown {
  html: string;
  toc: TocEntry[];
  readingMinutes: number;
  /** The page title comes from the frontmatter, so the body should have none. */
  h1Count: number;
}

const headingTags = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/**
 * GitHub's schema, but ids unprefixed and only on headings and footnotes, no `name`, links http(s),
 * mailto or relative, images http(s) or relative. Raw HTML never gets here.
 */
const sanitizeSchema: SanitizeSchema = (() => {
  const attributes: NonNullable<SanitizeSchema['attributes']> = { ...defaultSchema.attributes };
  attributes['*'] = (attributes['*'] ?? []).filter((attribute) => attribute !== 'id' && attribute !== 'name');
  for (const tag of [...headingTags, 'li', 'a']) attributes[tag] = [...(attributes[tag] ?? []), 'id'];
  return {
    ...defaultSchema,
    attributes,
    clobber: [],
    clobberPrefix: '',
    protocols: { ...defaultSchema.protocols, href: ['http', 'https', 'mailto'], src: ['http', 'https'] },
  };
})();

const footnoteLabels: Record<Locale, { label: string; backLabel: string }> = {
  en: { label: 'Footnotes', backLabel: 'Back to reference' },
  th: { label: 'เชิงอรรถ', backLabel: 'กลับไปยังจุดอ้างอิง' },
};

/** The footnotes' own heading, added by remark-rehype (Markdown cannot give a heading a class). */
function isFootnoteLabel(node: Element): boolean {
  const className = node.properties.className;
  return Array.isArray(className) && className.includes('sr-only');
}

/**
 * After rehype-slug: a heading with no slug (only emoji, say) or one colliding with another id
 * (footnotes) gets `section-N`, N counting headings from 1.
 */
function rehypeHeadingIdFallback() {
  return (tree: Root) => {
    const seen = new Set<string>();
    const headings: Element[] = [];
    visit(tree, 'element', (node) => {
      const id = node.properties.id;
      if (headingTags.has(node.tagName) && !isFootnoteLabel(node)) headings.push(node);
      else if (typeof id === 'string' && id) seen.add(id);
    });
    headings.forEach((heading, index) => {
      let id = typeof heading.properties.id === 'string' ? heading.properties.id : '';
      if (!id || seen.has(id)) {
        id = `section-${index + 1}`;
        for (let n = 2; seen.has(id); n += 1) id = `section-${index + 1}-${n}`;
      }
      heading.properties.id = id;
      seen.add(id);
    });
  };
}

function tocOf(tree: Root): TocEntry[] {
  const toc: TocEntry[] = [];
  visit(tree, 'element', (node) => {
    if (node.tagName !== 'h2' && node.tagName !== 'h3') return;
    const id = node.properties.id;
    if (typeof id !== 'string' || !id || isFootnoteLabel(node)) return;
    toc.push({ id, text: toString(node).trim(), level: node.tagName === 'h2' ? 2 : 3 });
  });
  return toc;
}

function countH1(tree: Root): number {
  let count = 0;
  visit(tree, 'element', (node) => {
    if (node.tagName === 'h1') count += 1;
  });
  return count;
}

/** A table may scroll sideways in its own box on a phone (client/styles/thai.css): a key scrolls it too. */
function rehypeFocusableTables() {
  return (tree: Root) =>
    visit(tree, 'element', (node) => {
      if (node.tagName === 'table') node.properties.tabIndex = 0;
    });
}

function createProcessor(locale: Locale) {
  const { label, backLabel } = footnoteLabels[locale];
  return unified()
    .use(remarkParse)
    .use(remarkGfm)
    .use(remarkRehype, { footnoteLabel: label, footnoteBackLabel: backLabel })
    .use(rehypeSlug)
    .use(rehypeHeadingIdFallback)
    .use(rehypeSanitize, sanitizeSchema)
    .use(rehypeFocusableTables)
    .use(rehypeStringify);
}

const processors = new Map<Locale, ReturnType<typeof createProcessor>>();

export function renderMarkdown(markdown: string, locale: Locale): RenderedMarkdown {
  let processor = processors.get(locale);
  if (!processor) {
    processor = createProcessor(locale);
    processors.set(locale, processor);
  }
  const tree = processor.runSync(processor.parse(markdown));
  return {
    html: processor.stringify(tree),
    toc: tocOf(tree),
    readingMinutes: readingMinutes(toString(tree), locale),
    h1Count: countH1(tree),
  };
}
