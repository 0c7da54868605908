/**
 * Keeps the `capacity` best (score, id) pairs seen: higher score first, and on equal scores the
 * lower id (earlier in the catalog) first, so rankings are deterministic.
 */
export class TopK {
  readonly #ids: Int32Array;
  readonly #scores: Float64Array;
  #size = 0;

  constructor(readonly capacity: number) {
    this.#ids = new Int32Array(Math.max(1, capacity));
    this.#scores = new Float64Array(Math.max(1, capacity));
  }

  // True when (a) ranks below (b): the heap keeps its worst entry at the root.
  #worse(scoreA: number, idA: number, scoreB: number, idB: number): boolean {
    return scoreA < scoreB || (scoreA === scoreB && idA > idB);
  }

  push(id: number, score: number): void {
    if (this.#size < this.capacity) {
      let i = this.#size++;
      this.#ids[i] = id;
      this.#scores[i] = score;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.#worse(this.#scores[i] ?? 0, this.#ids[i] ?? 0, this.#scores[parent] ?? 0, this.#ids[parent] ?? 0))
          break;
        this.#swap(i, parent);
        i = parent;
      }
      return;
    }
    if (!this.#worse(this.#scores[0] ?? 0, this.#ids[0] ?? 0, score, id)) return;
    this.#ids[0] = id;
    this.#scores[0] = score;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let worst = i;
      if (
        left < this.#size &&
        this.#worse(this.#scores[left] ?? 0, this.#ids[left] ?? 0, this.#scores[worst] ?? 0, this.#ids[worst] ?? 0)
      )
        worst = left;
      if (
        right < this.#size &&
        this.#worse(this.#scores[right] ?? 0, this.#ids[right] ?? 0, this.#scores[worst] ?? 0, this.#ids[worst] ?? 0)
      )
        worst = right;
      if (worst === i) break;
      this.#swap(i, worst);
      i = worst;
    }
  }

  #swap(a: number, b: number): void {
    const id = this.#ids[a] ?? 0;
    const score = this.#scores[a] ?? 0;
    this.#ids[a] = this.#ids[b] ?? 0;
    this.#scores[a] = this.#scores[b] ?? 0;
    this.#ids[b] = id;
    this.#scores[b] = score;
  }

  /** The kept pairs, best first. */
  sorted(): { id: number; score: number }[] {
    const out: { id: number; score: number }[] = [];
    for (let i = 0; i < this.#size; i += 1) out.push({ id: this.#ids[i] ?? 0, score: this.#scores[i] ?? 0 });
    return out.sort((a, b) => b.score - a.score || a.id - b.id);
  }
}
