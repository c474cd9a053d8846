import { LRUCache } from 'lru-cache';
import { compressForStorage, compressionThresholdBytes, type ContentEncoding, type Encoding } from './encoding.ts';
import { strongEtag } from './etag.ts';
import { utf8Bytes } from './utf8-bytes.ts';

/** What a cached response repeats besides its body (the per-request headers come from the hooks). */
export interface StoredHeaders {
  'content-type': string;
  'cache-control'?: string;
  vary?: string;
}

const etagSuffix: Record<Encoding, string> = { identity: '', br: '.br', gzip: '.gz' };

/**
 * The body as bytes in memory of their own, copied once. `Buffer.from` and zlib hand back small
 * results as views into a shared pool slab (8 KiB on Node 20, 64 KiB on Node 24): a cached view
 * would keep its whole slab alive, several times the bytes the size bound counts.
 */
function ownBytes(body: string | Buffer): Buffer {
  if (typeof body === 'string') return ownBytes(utf8Bytes(body));
  if (body.byteOffset === 0 && body.buffer.byteLength === body.length) return body;
  const copy = Buffer.allocUnsafeSlow(body.length);
  body.copy(copy);
  return copy;
}

/**
 * One rendered page (or payload) as sent to anonymous visitors: the identity bytes and their
 * compressed variants, each made once, when first asked for.
 */
export class PageEntry {
  readonly identity: Buffer;
  readonly headers: StoredHeaders;
  /** The build and content the page was rendered from: an entry of another generation is stale. */
  readonly generation: string;
  /** The metrics route label of the render (`page:article`), repeated on hits. */
  readonly routeLabel: string | undefined;
  readonly #hash: string;
  readonly #variants = new Map<ContentEncoding, Promise<Buffer>>();
  #compressedBytes = 0;
  #onGrow: () => void = () => undefined;

  constructor(options: { body: string | Buffer; headers: StoredHeaders; generation: string; routeLabel?: string | undefined }) {
    this.identity = ownBytes(options.body);
    this.headers = options.headers;
    this.generation = options.generation;
    this.routeLabel = options.routeLabel;
    // The bytes, not the string: hashing a string would encode it to UTF-8 a second time.
    this.#hash = strongEtag(this.identity).slice(1, -1);
  }

  /** Bytes held, for the cache's size bound. */
  get size(): number {
    return this.identity.length + this.#compressedBytes;
  }

  /** Small bodies are never compressed (the same threshold as other responses). */
  encodingFor(accepted: Encoding): Encoding {
    return this.identity.length < compressionThresholdBytes ? 'identity' : accepted;
  }

  /** A strong ETag per encoding: the bytes differ, so the tags do. */
  etag(encoding: Encoding): string {
    return `"${this.#hash}${etagSuffix[encoding]}"`;
  }

  /** Whether an If-None-Match names this page in any encoding (the browser keeps the decoded page). */
  matches(ifNoneMatch: string | undefined): boolean {
    if (!ifNoneMatch) return false;
    if (ifNoneMatch.trim() === '*') return true;
    const tags = [this.etag('identity'), this.etag('br'), this.etag('gzip')];
    return ifNoneMatch.split(',').some((candidate) => tags.includes(candidate.trim().replace(/^W\//, '')));
  }

  /** The body in `encoding`, compressed on first use and kept; concurrent first uses share the work. */
  body(encoding: Encoding): Promise<Buffer> | Buffer {
    if (encoding === 'identity') return this.identity;
    let variant = this.#variants.get(encoding);
    if (!variant) {
      variant = compressForStorage(this.identity, encoding).then(ownBytes);
      this.#variants.set(encoding, variant);
      variant.then(
        (bytes) => {
          this.#compressedBytes += bytes.length;
          this.#onGrow();
        },
        () => this.#variants.delete(encoding),
      );
    }
    return variant;
  }

  /** Called by the cache so a variant added later counts towards the size bound. */
  set onGrow(listener: () => void) {
    this.#onGrow = listener;
  }
}

export interface PageCacheOptions {
  /** How long an entry may be served after it was rendered. */
  ttlMs: number;
  /** Upper bound of the bytes held (all variants), least recently used dropped first. */
  maxBytes: number;
  /** The clock entries age by (tests move it); default `performance.now`. */
  now?: () => number;
}

/**
 * Rendered pages for anonymous visitors, by key (lib/page-cache-key.ts), bounded by age and by
 * bytes (lru-cache, sized by the bytes each entry holds). Concurrent misses for one key render
 * once: the first claims the key, the others wait for it and read what it stored.
 */
export class PageCache {
  readonly #entries: LRUCache<string, PageEntry>;
  readonly #rendering = new Map<string, Promise<void>>();

  constructor(options: PageCacheOptions) {
    this.#entries = new LRUCache<string, PageEntry>({
      ttl: options.ttlMs,
      maxSize: options.maxBytes,
      sizeCalculation: (entry, key) => Math.max(1, entry.size + key.length),
      // An age bound, not a sliding window: reading an entry does not make it live longer.
      updateAgeOnGet: false,
      ttlAutopurge: false,
      ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
    });
  }

  /** The entry for `key` rendered in `generation`, or nothing (a stale generation is dropped). */
  get(key: string, generation: string): PageEntry | undefined {
    const entry = this.#entries.get(key);
    if (entry && entry.generation !== generation) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  set(key: string, entry: PageEntry): void {
    entry.onGrow = () => {
      // Re-set to recount its size; only while it is still the entry for the key.
      if (this.#entries.peek(key) === entry) this.#entries.set(key, entry, { noUpdateTTL: true });
    };
    this.#entries.set(key, entry);
  }

  /**
   * Claims the rendering of `key`: `undefined` when another request is already rendering it
   * (wait for `rendered(key)`), otherwise a `done` to call once the response is stored or not.
   */
  claim(key: string): (() => void) | undefined {
    if (this.#rendering.has(key)) return undefined;
    let resolve!: () => void;
    const rendering = new Promise<void>((settle) => (resolve = settle));
    this.#rendering.set(key, rendering);
    // Idempotent: called when the response is stored and again when the connection closes.
    return () => {
      if (this.#rendering.get(key) === rendering) this.#rendering.delete(key);
      resolve();
    };
  }

  /** Settles when the request rendering `key` has stored its response (or given up). */
  rendered(key: string): Promise<void> {
    return this.#rendering.get(key) ?? Promise.resolve();
  }

  /** Drops every entry (content reloaded). Renders in flight store under their old generation, never served. */
  clear(): void {
    this.#entries.clear();
  }

  get bytes(): number {
    return this.#entries.calculatedSize;
  }

  get size(): number {
    return this.#entries.size;
  }
}
