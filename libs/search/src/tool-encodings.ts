import type { Bm25Index } from './bm25-index';
import { encodedToolTerms, encodeTerms, loadRequestEncoder, requestBag } from './request-encoder';
import type { SearchDocument } from './search-document';

/** Tools encoded per turn of the event loop when built in the background (about 10 ms). */
const BACKGROUND_SLICE = 512;

/**
 * Every catalog's background build, in turns: one slice of one catalog per turn of the event loop,
 * however many catalogs wait. Each catalog timing its own slices let builds pile up
 * (a tenant creating engine after engine had a dozen slices run back to back in each turn), and
 * kept a superseded engine alive until its build ended; the queue holds each one weakly.
 */
const backgroundQueue: WeakRef<ToolEncodings>[] = [];
let backgroundTimer: ReturnType<typeof setTimeout> | undefined;

function scheduleBackground(): void {
  if (backgroundTimer !== undefined || backgroundQueue.length === 0) return;
  backgroundTimer = setTimeout(runBackgroundSlice, 0);
  // Node: a pending slice does not keep a process alive that has nothing else to do.
  (backgroundTimer as { unref?: () => void }).unref?.();
}

function runBackgroundSlice(): void {
  backgroundTimer = undefined;
  while (backgroundQueue.length > 0) {
    const head = backgroundQueue.shift() as WeakRef<ToolEncodings>;
    const next = head.deref();
    const outcome = next === undefined ? 'done' : next.buildSlice();
    // Catalogs take turns: one with more to build goes to the back (finished or collected ones —
    // no session holds their engine any more — leave), so a tenant queueing many cannot hold up
    // another's.
    if (outcome === 'more') backgroundQueue.push(head);
    // One slice of work per turn, whichever catalog it was.
    if (outcome !== 'done') break;
  }
  scheduleBackground();
}

/** The dot product of `request` with the vector of `dimensions` bytes at `from` (four at a time). */
function dotAt(request: Float32Array, vectors: Int8Array, from: number, dimensions: number): number {
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  let k = 0;
  for (; k + 3 < dimensions; k += 4) {
    a += (request[k] as number) * (vectors[from + k] as number);
    b += (request[k + 1] as number) * (vectors[from + k + 1] as number);
    c += (request[k + 2] as number) * (vectors[from + k + 2] as number);
    d += (request[k + 3] as number) * (vectors[from + k + 3] as number);
  }
  for (; k < dimensions; k += 1) a += (request[k] as number) * (vectors[from + k] as number);
  return a + b + c + d;
}

/**
 * One catalog's tools as unit vectors (signed bytes, 127 = 1), built on first use (most answers
 * are confident and never ask) or in the background (`buildInBackground`: the daemon's engines).
 * Shared like the engine that owns it; a query allocates only its own request vector and result.
 */
export class ToolEncodings {
  readonly #index: Bm25Index;
  /** The tools' vectors, filled up to `#built`; complete once `#built` is the catalog's size. */
  #vectors: Int8Array | undefined;
  #built = 0;
  /** While queued for the background (`buildInBackground`): the tools per slice. */
  #slice: number | undefined;
  /** While building: word → id (half a million lookups; queries search the sorted list instead). */
  #ids: Map<string, number> | undefined;
  /** Encoding failed once: the encoder stays off for this catalog. */
  #failed = false;
  #scans = 0;
  readonly #dimensions: number;
  /** Scratch for one request's vector. */
  readonly #request: Float32Array;

  constructor(index: Bm25Index) {
    this.#index = index;
    this.#dimensions = loadRequestEncoder().dimensions;
    this.#request = new Float32Array(this.#dimensions);
  }

  /** Whether every tool's vector is built. */
  get ready(): boolean {
    return this.#vectors !== undefined && this.#built === this.#index.size;
  }

  /** Builds the tools' vectors that are not built yet, now. */
  build(): void {
    this.#encode(this.#index.size);
  }

  /**
   * Builds the tools' vectors in slices of `slice` tools, one per turn of the event loop, in a
   * queue shared by every catalog (so a daemon keeps serving however many catalogs wait; 6,685
   * tools: about 124 ms in all). Until they are all built, `nearest` answers nothing rather than
   * building them on the query's time.
   */
  buildInBackground(slice = BACKGROUND_SLICE): void {
    if (this.ready || this.#failed || this.#slice !== undefined) return;
    this.#slice = slice;
    backgroundQueue.push(new WeakRef(this));
    scheduleBackground();
  }

  /**
   * One slice of a background build: `more` when some is left, `finished` when this slice ended
   * it, `done` when there was nothing to do (no work was done).
   */
  buildSlice(): 'more' | 'finished' | 'done' {
    if (this.#slice === undefined) return 'done';
    this.#encode(this.#built + this.#slice);
    if (!this.ready && !this.#failed) return 'more';
    this.#slice = undefined;
    return 'finished';
  }

  /**
   * Encodes the tools from `#built` up to (not including) `until`. Should it ever fail, the
   * encoder is off for this catalog (`#failed`): doubtful answers stay lexical, nothing retries it
   * on a query's time.
   */
  #encode(until: number): void {
    if (this.#failed) return;
    try {
      this.#encodeRange(until);
    } catch {
      this.#failed = true;
      this.#vectors = undefined;
      this.#ids = undefined;
    }
  }

  #encodeRange(until: number): void {
    const index = this.#index;
    const end = Math.min(until, index.size);
    if (this.#built >= end && this.#vectors !== undefined) return;
    const dimensions = this.#dimensions;
    const encoder = loadRequestEncoder();
    this.#vectors ??= new Int8Array(index.size * dimensions);
    this.#ids ??= new Map(encoder.words.map((word, id) => [word, id]));
    const ids = this.#ids;
    const idOf = (term: string) => ids.get(term);
    const vectors = this.#vectors;
    const vector = new Float32Array(dimensions);
    for (let doc = this.#built; doc < end; doc += 1) {
      const terms = encodedToolTerms(index.documents[doc] as SearchDocument).map((term) => {
        const id = index.termId(term);
        return { term, weight: id === undefined ? 0 : index.idf(id) };
      });
      if (!encodeTerms(terms, vector, encoder, idOf)) continue;
      for (let k = 0; k < dimensions; k += 1) vectors[doc * dimensions + k] = Math.round((vector[k] as number) * 127);
    }
    this.#built = end;
    if (this.ready) this.#ids = undefined;
  }

  /**
   * The `count` tools nearest a request's words (cosine, best first; ties to the lower position),
   * or none when no word of the request has a vector. Cost: one dot product per tool.
   */
  nearest(requestTerms: readonly string[], count: number): { index: number; similarity: number }[] {
    const terms = requestBag(requestTerms);
    const request = this.#request;
    if (!this.#usable() || !encodeTerms(terms, request)) return [];
    this.#scans += 1;
    const vectors = this.#vectors as Int8Array;
    const dimensions = this.#dimensions;
    const best: { index: number; similarity: number }[] = [];
    let worst = -Infinity;
    for (let doc = 0; doc < this.#index.size; doc += 1) {
      const dot = dotAt(request, vectors, doc * dimensions, dimensions);
      if (best.length === count && dot <= worst) continue;
      let at = best.length;
      while (at > 0 && (best[at - 1] as { similarity: number }).similarity < dot) at -= 1;
      best.splice(at, 0, { index: doc, similarity: dot });
      if (best.length > count) best.pop();
      if (best.length === count) worst = (best[count - 1] as { similarity: number }).similarity;
    }
    for (const entry of best) entry.similarity = Math.round((entry.similarity / 127) * 1000) / 1000;
    return best;
  }

  /** The cosine between a request's words and one tool, or undefined when no word has a vector. */
  similarity(requestTerms: readonly string[], doc: number): number | undefined {
    const terms = requestBag(requestTerms);
    if (doc < 0 || doc >= this.#index.size || !this.#usable() || !encodeTerms(terms, this.#request)) return undefined;
    const vectors = this.#vectors as Int8Array;
    let dot = 0;
    for (let k = 0; k < this.#dimensions; k += 1)
      dot += (this.#request[k] as number) * (vectors[doc * this.#dimensions + k] as number);
    return Math.round((dot / 127) * 1000) / 1000;
  }

  /**
   * The cosines between a request's words and each of `docs` (the request encoded once), or
   * undefined when no word has a vector or the tools' vectors cannot answer now.
   */
  similarities(requestTerms: readonly string[], docs: readonly number[]): number[] | undefined {
    const terms = requestBag(requestTerms);
    if (!this.#usable() || !encodeTerms(terms, this.#request)) return undefined;
    const vectors = this.#vectors as Int8Array;
    return docs.map((doc) =>
      doc < 0 || doc >= this.#index.size
        ? 0
        : dotAt(this.#request, vectors, doc * this.#dimensions, this.#dimensions) / 127,
    );
  }

  /**
   * Whether the tools' vectors can answer now: built (building the rest first unless a background
   * build is under way — no query waits for that), and never failed.
   */
  #usable(): boolean {
    if (this.#failed || this.#slice !== undefined) return false;
    this.build();
    return this.ready;
  }

  /** How many requests this catalog's vectors were scanned for (each costs one dot product per tool). */
  get scans(): number {
    return this.#scans;
  }

  /** Bytes held (for the memory bench): the tools' vectors once built. */
  get bytes(): number {
    return this.#vectors?.byteLength ?? 0;
  }
}
