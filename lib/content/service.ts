import { ContentError, type ContentIssue, type ContentSnapshot } from './snapshot.ts';
import { ContentIndex } from './content-index.ts';
import { robotsTxt, sitemapXml } from './sitemap.ts';

export interface ContentServiceOptions {
  root: string;
  showDrafts: boolean;
  /** Throw on any content problem (production); otherwise keep them for the pages to show. */
  strict: boolean;
  publicUrl: string;
  onIssues?: (issues: readonly ContentIssue[]) => void;
  /** Reads the folder; default `loadContent` on this thread. */
  read?: (root: string) => Promise<ContentSnapshot>;
}

/** Imported when first used: loader.ts brings the Markdown pipeline. */
async function loadOnThisThread(root: string): Promise<ContentSnapshot> {
  const { loadContent } = await import('./loader.ts');
  return loadContent(root);
}

/** The loaded content, as `app.content`; `reload()` swaps the index (dev edits). Queries: `index`. */
export class ContentService {
  readonly #options: ContentServiceOptions;
  #index: ContentIndex;
  #sitemap: { version: string; xml: string } | undefined;
  #loading: Promise<ContentIndex> | undefined;
  #queued: Promise<ContentIndex> | undefined;
  readonly #reloadListeners = new Set<(index: ContentIndex) => void>();

  private constructor(options: ContentServiceOptions, index: ContentIndex) {
    this.#options = options;
    this.#index = index;
  }

  static async load(options: ContentServiceOptions): Promise<ContentService> {
    return new ContentService(options, await ContentService.#build(options));
  }

  static async #build(options: ContentServiceOptions): Promise<ContentIndex> {
    const snapshot = await (options.read ?? loadOnThisThread)(options.root);
    if (snapshot.issues.length) {
      if (options.strict) throw new ContentError(snapshot.issues);
      options.onIssues?.(snapshot.issues);
    }
    return new ContentIndex(snapshot, { showDrafts: options.showDrafts });
  }

  /**
   * Reads the folder again and swaps the index. A call during a load queues one more (the running
   * one may have read the files before the change); calls while one is queued share it.
   */
  async reload(): Promise<ContentIndex> {
    if (this.#loading) {
      this.#queued ??= this.#loading
        .catch(() => undefined)
        .then(() => {
          this.#queued = undefined;
          return this.reload();
        });
      return this.#queued;
    }
    this.#loading = ContentService.#build(this.#options)
      .then((index) => {
        this.#index = index;
        for (const listener of this.#reloadListeners) listener(index);
        return index;
      })
      .finally(() => {
        this.#loading = undefined;
      });
    return this.#loading;
  }

  onReload(listener: (index: ContentIndex) => void): () => void {
    this.#reloadListeners.add(listener);
    return () => this.#reloadListeners.delete(listener);
  }

  get index(): ContentIndex {
    return this.#index;
  }

  /** Changes whenever a content file does (for ETags of anything built from content). */
  get version(): string {
    return this.#index.version;
  }

  sitemapXml(): string {
    const index = this.#index;
    if (this.#sitemap?.version !== index.version) {
      this.#sitemap = { version: index.version, xml: sitemapXml(index.sitemap, this.#options.publicUrl) };
    }
    return this.#sitemap.xml;
  }

  robotsTxt(): string {
    return robotsTxt(this.#options.publicUrl);
  }
}
