import { LRUCache } from 'lru-cache';
import { compressForStorage, compressionThresholdBytes, type ContentEncoding, type Encoding } from './encoding.ts';
import { matchesIfNoneMatch, strongEtag } from './etag.ts';
import { utf8Bytes } from './utf8-bytes.ts';

/** A type, not an interface, so Fastify's `reply.headers()` takes it. */
export type StoredHeaders = {
  'content-type': string;
  'cache-control'?: string;
  vary?: string;
};

/** Headers every answer carries whatever it is (the security headers), as [name, value] in the order sent. */
export type FixedHeaders = ReadonlyArray<readonly [name: string, value: string]>;

const etagSuffix: Record<Encoding, string> = { identity: '', br: '.br', gzip: '.gz' };

/** A cached view into a shared Buffer pool slab would keep the whole slab alive (decision 0023). */
function ownBytes(body: string | Buffer): Buffer {
  if (typeof body === 'string') return ownBytes(utf8Bytes(body));
  if (body.byteOffset === 0 && body.buffer.byteLength === body.length) return body;
  const copy = Buffer.allocUnsafeSlow(body.length);
  body.copy(copy);
  return copy;
}

/** One rendered page or payload for anonymous visitors; each compressed variant made when first asked for. */
export class PageEntry {
  readonly identity: Buffer;
  readonly headers: StoredHeaders;
  /** As the render that filled the entry was sent them, so a hit needs not make them again. */
  readonly fixedHeaders: FixedHeaders;
  /** The build and content rendered from: an entry of another generation is stale. */
  readonly generation: string;
  readonly routeLabel: string | undefined;
  readonly #hash: string;
  readonly #variants = new Map<ContentEncoding, Promise<Buffer>>();
  readonly #made = new Map<ContentEncoding, Buffer>();
  #compressedBytes = 0;
  #onGrow: () => void = () => undefined;

  constructor(options: {
    body: string | Buffer;
    headers: StoredHeaders;
    fixedHeaders?: FixedHeaders;
    generation: string;
    routeLabel?: string | undefined;
  }) {
    this.identity = ownBytes(options.body);
    this.headers = options.headers;
    this.fixedHeaders = options.fixedHeaders ?? [];
    this.generation = options.generation;
    this.routeLabel = options.routeLabel;
    // The bytes, not the string: hashing a string would encode it to UTF-8 a second time.
    this.#hash = strongEtag(this.identity).slice(1, -1);
  }

  get size(): number {
    return this.identity.length + this.#compressedBytes;
  }

  encodingFor(accepted: Encoding): Encoding {
    return this.identity.length < compressionThresholdBytes ? 'identity' : accepted;
  }

  etag(encoding: Encoding): string {
    return `"${this.#hash}${etagSuffix[encoding]}"`;
  }

  /** Any encoding's tag matches: the browser keeps the decoded page. */
  matches(ifNoneMatch: string | undefined): boolean {
    return matchesIfNoneMatch(ifNoneMatch, [this.etag('identity'), this.etag('br'), this.etag('gzip')]);
  }

  body(encoding: Encoding): Promise<Buffer> | Buffer {
    if (encoding === 'identity') return this.identity;
    let variant = this.#variants.get(encoding);
    if (!variant) {
      variant = compressForStorage(this.identity, encoding).then(ownBytes);
      this.#variants.set(encoding, variant);
      variant.then(
        (bytes) => {
          this.#made.set(encoding, bytes);
          this.#compressedBytes += bytes.length;
          this.#onGrow();
        },
        () => this.#variants.delete(encoding),
      );
    }
    return variant;
  }

  /** The body in `encoding` if it is made already (`body` makes it), without waiting. */
  madeBody(encoding: Encoding): Buffer | undefined {
    return encoding === 'identity' ? this.identity : this.#made.get(encoding);
  }

  /** So a variant added later counts towards the size bound. */
  set onGrow(listener: () => void) {
    this.#onGrow = listener;
  }
}

export interface PageCacheOptions {
  ttlMs: number;
  maxBytes: number;
  now?: () => number;
}

/** Bounded by age and bytes. Concurrent misses for one key render once: the others wait for the first. */
export class PageCache {
  readonly #entries: LRUCache<string, PageEntry>;
  readonly #rendering = new Map<string, Promise<void>>();

  constructor(options: PageCacheOptions) {
    this.#entries = new LRUCache<string, PageEntry>({
      ttl: options.ttlMs,
      maxSize: options.maxBytes,
      sizeCalculation: (entry, key) => Math.max(1, entry.size + key.length),
      updateAgeOnGet: false,
      ttlAutopurge: false,
      ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
    });
  }

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

  /** `undefined` when another request is rendering `key` (wait for `rendered(key)`), else a `done`. */
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

  rendered(key: string): Promise<void> {
    return this.#rendering.get(key) ?? Promise.resolve();
  }

  /** Renders in flight store under their old generation, never served. */
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
