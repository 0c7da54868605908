/**
 * Keeps the `capacity` best (score, id) pairs seen: higher score first, and on equal scores the
 * lower id (earlier in the catalog) first, so rankings are deterministic. A binary heap with its
 * worst entry at the root; an offer that does not beat the root costs one comparison.
 */
export class TopK {
  #ids: Int32Array;
  #scores: Float64Array;
  #size = 0;
  #capacity: number;
  /** Scratch for `sortedInto`: the scores beside the ids being sorted. */
  #sortScores = new Float64Array(0);

  constructor(capacity: number) {
    this.#capacity = capacity;
    this.#ids = new Int32Array(Math.max(1, capacity));
    this.#scores = new Float64Array(Math.max(1, capacity));
  }

  get capacity(): number {
    return this.#capacity;
  }

  /** Empties the heap for reuse with a new capacity (the query path keeps one per engine). */
  reset(capacity: number): void {
    if (capacity > this.#ids.length) {
      this.#ids = new Int32Array(capacity);
      this.#scores = new Float64Array(capacity);
    }
    this.#capacity = capacity;
    this.#size = 0;
  }

  get size(): number {
    return this.#size;
  }

  /** The score of the worst kept pair (meaningful once the heap is full). */
  get worstScore(): number {
    return this.#scores[0] as number;
  }

  offer(id: number, score: number): void {
    const ids = this.#ids;
    const scores = this.#scores;
    if (this.#size < this.#capacity) {
      let i = this.#size++;
      // Sift up: move worse parents down.
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!worse(score, id, scores[parent] as number, ids[parent] as number)) break;
        ids[i] = ids[parent] as number;
        scores[i] = scores[parent] as number;
        i = parent;
      }
      ids[i] = id;
      scores[i] = score;
      return;
    }
    if (!worse(scores[0] as number, ids[0] as number, score, id)) return;
    // Replace the root and sift down.
    const size = this.#size;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= size) break;
      const right = left + 1;
      let child = left;
      if (
        right < size &&
        worse(scores[right] as number, ids[right] as number, scores[left] as number, ids[left] as number)
      )
        child = right;
      if (!worse(scores[child] as number, ids[child] as number, score, id)) break;
      ids[i] = ids[child] as number;
      scores[i] = scores[child] as number;
      i = child;
    }
    ids[i] = id;
    scores[i] = score;
  }

  /**
   * The kept ids, best first, in a new typed array (a plain array's elements kind varied from call
   * to call, and the query path's optimised code kept being thrown away on it: "wrong map").
   */
  ids(): Int32Array {
    const out = new Int32Array(this.#size);
    this.sortedInto(out);
    return out;
  }

  /**
   * Writes the kept ids, best first, into `out` (at least `size` long) and returns how many: the
   * query path passes a scratch array it owns, so ranking allocates nothing here. Insertion sort:
   * the pool is small. The heap itself is left as it was.
   */
  sortedInto(out: Int32Array): number {
    const size = this.#size;
    if (this.#sortScores.length < size) this.#sortScores = new Float64Array(this.#ids.length);
    const ids = out;
    const scores = this.#sortScores;
    for (let i = 0; i < size; i += 1) {
      const id = this.#ids[i] as number;
      const score = this.#scores[i] as number;
      let j = i - 1;
      while (j >= 0 && worse(scores[j] as number, ids[j] as number, score, id)) {
        ids[j + 1] = ids[j] as number;
        scores[j + 1] = scores[j] as number;
        j -= 1;
      }
      ids[j + 1] = id;
      scores[j + 1] = score;
    }
    return size;
  }
}

/** True when (scoreA, idA) ranks below (scoreB, idB). */
function worse(scoreA: number, idA: number, scoreB: number, idB: number): boolean {
  return scoreA < scoreB || (scoreA === scoreB && idA > idB);
}
