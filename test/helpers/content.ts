/** What the content tests share: the service with its content only, fixtures, a data source call. */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.ts';
import type { Locale } from '../../contract/locales.ts';
import type { PageDataArgs } from '../../contract/page-data.ts';
import { type PageId, pageRoutes } from '../../contract/routes.ts';
import type { PageServerModule } from '../../lib/pages/page-server.ts';
import type { ContentPluginOptions } from '../../plugins/app/content.ts';
import { testConfig } from './app.ts';

export const projectDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const fixture = (name: string) => path.join(projectDir, 'test', 'fixtures', name);
export const realContent = path.join(projectDir, 'content');
export const publicUrl = 'https://asdas.example';

export interface ContentTestAppOptions extends ContentPluginOptions {
  env?: 'production' | 'development' | 'test';
  dev?: boolean;
}

/** The service with its content only (no database, icons, builds or pages). */
export async function buildContentApp(options: ContentTestAppOptions = {}): Promise<FastifyInstance> {
  const { env = 'production', dev = false, ...content } = options;
  const config = testConfig({ NODE_ENV: env, PUBLIC_URL: publicUrl }, { dev });
  const app = await buildApp({ config, without: ['accounts', 'icons', 'builds', 'pages'], content });
  await app.ready();
  return app;
}

/** Calls the page's loader, as its document and its `_payload.json` do. */
export async function callSource(
  app: FastifyInstance,
  page: PageId,
  locale: Locale,
  path: string,
  params: Record<string, string | undefined> = {},
): Promise<unknown> {
  const args: PageDataArgs = { locale, path, params, user: null };
  const route = pageRoutes.find((route) => route.id === page)!;
  const half = (await import(`../../client/${route.module.replace(/\.tsx$/, '.server.ts')}`)) as PageServerModule;
  return half.loader!(app, args);
}

/** A private copy of a fixture tree (for tests that edit files). */
export async function copyFixture(name: string): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'content-test-'));
  await cp(fixture(name), dir, { recursive: true });
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Waits until `check` returns true (or throws after `timeoutMs`). The limit only decides how long
 * a broken reload takes to fail: a content reload on a starved CI machine (a watcher event, the
 * debounce, a load in a worker) can take seconds, so it is generous.
 */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const start = Date.now();
  for (;;) {
    if (await check()) return;
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A small XML well-formedness check (no XML parser is installed): declaration, balanced and
 * properly nested elements, quoted attributes, no stray `<` or `&`. Returns the element names in
 * document order, or throws with the problem.
 */
export function checkWellFormedXml(xml: string): string[] {
  const names: string[] = [];
  const stack: string[] = [];
  let rest = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const name = '[A-Za-z_][\\w.-]*(?::[A-Za-z_][\\w.-]*)?';
  const attribute = `\\s+${name}\\s*=\\s*(?:"[^"<&]*(?:&(?:amp|lt|gt|quot|apos|#\\d+|#x[0-9a-fA-F]+);[^"<&]*)*"|'[^'<&]*')`;
  const open = new RegExp(`^<(${name})((?:${attribute})*)\\s*(/?)>`);
  const close = new RegExp(`^</(${name})\\s*>`);
  const text = /^[^<]+/;
  let root = 0;
  while (rest.length) {
    let match: RegExpExecArray | null;
    if ((match = close.exec(rest))) {
      const expected = stack.pop();
      if (expected !== match[1]) throw new Error(`</${match[1]}> closes <${expected}>`);
      rest = rest.slice(match[0].length);
    } else if ((match = open.exec(rest))) {
      if (stack.length === 0) root += 1;
      names.push(match[1]!);
      if (!match[3]) stack.push(match[1]!);
      rest = rest.slice(match[0].length);
    } else if ((match = text.exec(rest))) {
      const chunk = match[0];
      if (stack.length === 0 && chunk.trim()) throw new Error(`text outside the root element: ${chunk.slice(0, 40)}`);
      if (/&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(chunk))
        throw new Error(`bare & in ${chunk.slice(0, 40)}`);
      rest = rest.slice(chunk.length);
    } else {
      throw new Error(`not well-formed near: ${rest.slice(0, 60)}`);
    }
  }
  if (stack.length) throw new Error(`unclosed <${stack.join('>, <')}>`);
  if (root !== 1) throw new Error(`expected one root element, found ${root}`);
  return names;
}
