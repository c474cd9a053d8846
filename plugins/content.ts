import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fp from 'fastify-plugin';
import { loadContentInWorker } from '../lib/content/load-in-worker.ts';
import { formatIssue } from '../lib/content/snapshot.ts';
import { ContentService } from '../lib/content/service.ts';
import { watchContent } from '../lib/content/watch.ts';

declare module 'fastify' {
  interface FastifyInstance {
    content: ContentService;
  }
}

export interface ContentPluginOptions {
  /** The content folder; default `<project>/content`. */
  root?: string;
  /** Reload on edits; default `config.dev`. */
  watch?: boolean;
  /** Serve and list drafts; default: everywhere but production. Production never shows them. */
  showDrafts?: boolean;
  /** Force polling instead of fs.watch (tests). */
  poll?: boolean;
}

/** The folder holding package.json above this file (works from the sources and from dist/). */
function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}

/**
 * Content pages: loads `content/` once at start (Markdown rendered and sanitized then, never per
 * request) and defines the `home`, `articleList`, `article` and `contentPage` page data sources
 * (`/sitemap.xml` and `/robots.txt` are routes/sitemap.ts).
 *
 * A content problem stops the start (production); in development it is logged, the affected
 * page's data source throws it (the page shows the message) and edits reload without a restart.
 */
export default fp<ContentPluginOptions>(
  async (app, options) => {
    const { config } = app;
    const root = path.resolve(options.root ?? path.join(projectRoot(), 'content'));
    const production = config.env === 'production';
    const content = await ContentService.load({
      root,
      strict: !config.dev,
      showDrafts: !production && (options.showDrafts ?? true),
      publicUrl: config.publicUrl,
      // In production the Markdown pipeline runs on a thread that ends after the load, so a
      // replica does not hold it for its whole life (lib/content/load-in-worker.ts). Development
      // and the tests load on this thread: from the sources a thread must start tsx first (about
      // a second per load), and there memory is not the point.
      ...(production ? { read: loadContentInWorker } : {}),
      onIssues: (issues) => {
        for (const issue of issues) app.log.error({ file: issue.file, field: issue.field }, formatIssue(issue));
      },
    });
    app.decorate('content', content);

    app.pageData.define('home', (args) => app.content.index.home(args));
    app.pageData.define('articleList', (args) => app.content.index.articleList(args));
    app.pageData.define('article', (args) => app.content.index.article(args));
    app.pageData.define('contentPage', (args) => app.content.index.contentPage(args));

    if (options.watch ?? config.dev) {
      const watcher = watchContent(
        root,
        () => {
          content.reload().then(
            (index) => app.log.info({ version: index.version, problems: index.issues.length }, 'content reloaded'),
            (error: Error) => app.log.error({ err: error }, 'content reload failed'),
          );
        },
        {
          poll: options.poll ?? false,
          onError: (error) => app.log.warn({ err: error }, 'content watch failed; polling'),
        },
      );
      app.addHook('onClose', async () => watcher.close());
      await watcher.ready;
    }
  },
  { name: 'content', dependencies: ['config', 'page-data'] },
);
