import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fp from 'fastify-plugin';
import { loadContentInWorker } from '../../lib/content/load-in-worker.ts';
import { formatIssue } from '../../lib/content/snapshot.ts';
import { readSnapshotCache, snapshotCacheFile } from '../../lib/content/snapshot-cache.ts';
import { ContentService } from '../../lib/content/service.ts';
import { watchContent } from '../../lib/content/watch.ts';

declare module 'fastify' {
  interface FastifyInstance {
    content: ContentService;
  }
}

export interface ContentPluginOptions {
  root?: string;
  watch?: boolean;
  /** Serve and list drafts; production never does. */
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

/** A content problem stops the start, except in development, where the page shows it (decision 0004). */
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
      // Production starts from the build's snapshot when the files are those it was made from
      // (decision 0033), else loads on a thread that ends, so a replica does not hold the Markdown
      // pipeline; from the sources a thread must start tsx first (decision 0022).
      ...(production
        ? {
            read: async (folder: string) =>
              (await readSnapshotCache(path.join(projectRoot(), snapshotCacheFile), folder)) ??
              loadContentInWorker(folder),
          }
        : {}),
      onIssues: (issues) => {
        for (const issue of issues) app.log.error({ file: issue.file, field: issue.field }, formatIssue(issue));
      },
    });
    app.decorate('content', content);

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
  { name: 'content', dependencies: ['config'] },
);
