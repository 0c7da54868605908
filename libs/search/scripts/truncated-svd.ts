/**
 * A truncated singular value decomposition of a sparse matrix, by the randomised range finder of
 * Halko, Martinsson and Tropp (2011): multiply by a seeded Gaussian block, a few power iterations
 * with re-orthonormalisation, then an exact decomposition of the small projected matrix (Jacobi
 * eigenvalues of B·Bᵀ). Build-time only (`learn-term-vectors.ts`); deterministic for a given seed.
 */

/** A sparse matrix in compressed rows: row r holds `cols[starts[r]…starts[r+1])` with `values`. */
export interface SparseRows {
  readonly rows: number;
  readonly columns: number;
  readonly starts: Int32Array;
  readonly cols: Int32Array;
  readonly values: Float64Array;
}

/** mulberry32: a small seeded generator, so the same data gives the same vectors. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Y (rows × width) = A · M, M dense (columns × width), both row-major. */
function times(a: SparseRows, m: Float64Array, width: number): Float64Array {
  const out = new Float64Array(a.rows * width);
  for (let r = 0; r < a.rows; r += 1)
    for (let at = a.starts[r] as number; at < (a.starts[r + 1] as number); at += 1) {
      const value = a.values[at] as number;
      const from = (a.cols[at] as number) * width;
      const to = r * width;
      for (let k = 0; k < width; k += 1) out[to + k] = (out[to + k] as number) + value * (m[from + k] as number);
    }
  return out;
}

/** Z (columns × width) = Aᵀ · Y, Y dense (rows × width). */
function timesTransposed(a: SparseRows, y: Float64Array, width: number): Float64Array {
  const out = new Float64Array(a.columns * width);
  for (let r = 0; r < a.rows; r += 1)
    for (let at = a.starts[r] as number; at < (a.starts[r + 1] as number); at += 1) {
      const value = a.values[at] as number;
      const to = (a.cols[at] as number) * width;
      const from = r * width;
      for (let k = 0; k < width; k += 1) out[to + k] = (out[to + k] as number) + value * (y[from + k] as number);
    }
  return out;
}

/** Orthonormalises the columns of a row-major (rows × width) matrix in place (modified Gram–Schmidt, twice). */
function orthonormalise(m: Float64Array, rows: number, width: number): void {
  for (let pass = 0; pass < 2; pass += 1)
    for (let j = 0; j < width; j += 1) {
      for (let i = 0; i < j; i += 1) {
        let dot = 0;
        for (let r = 0; r < rows; r += 1) dot += (m[r * width + i] as number) * (m[r * width + j] as number);
        for (let r = 0; r < rows; r += 1)
          m[r * width + j] = (m[r * width + j] as number) - dot * (m[r * width + i] as number);
      }
      let norm = 0;
      for (let r = 0; r < rows; r += 1) norm += (m[r * width + j] as number) ** 2;
      norm = Math.sqrt(norm) || 1;
      for (let r = 0; r < rows; r += 1) m[r * width + j] = (m[r * width + j] as number) / norm;
    }
}

/** Eigenvalues and eigenvectors (columns of `vectors`) of a symmetric n × n matrix, by cyclic Jacobi. */
function symmetricEigen(matrix: Float64Array, n: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(matrix);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i += 1) v[i * n + i] = 1;
  for (let sweep = 0; sweep < 100; sweep += 1) {
    let off = 0;
    for (let p = 0; p < n; p += 1) for (let q = p + 1; q < n; q += 1) off += (a[p * n + q] as number) ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < n; p += 1)
      for (let q = p + 1; q < n; q += 1) {
        const apq = a[p * n + q] as number;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = ((a[q * n + q] as number) - (a[p * n + p] as number)) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k += 1) {
          const akp = a[k * n + p] as number;
          const akq = a[k * n + q] as number;
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k += 1) {
          const apk = a[p * n + k] as number;
          const aqk = a[q * n + k] as number;
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k += 1) {
          const vkp = v[k * n + p] as number;
          const vkq = v[k * n + q] as number;
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
  }
  const values = new Float64Array(n);
  for (let i = 0; i < n; i += 1) values[i] = a[i * n + i] as number;
  return { values, vectors: v };
}

/**
 * The column (term) side of a rank-`rank` decomposition A ≈ U S Vᵀ: returns V·S as a row-major
 * (columns × rank) matrix, the usual latent-semantic term vectors, largest singular values first.
 */
export function termVectors(a: SparseRows, rank: number, seed = 1, powerIterations = 3, oversample = 20): Float64Array {
  const width = rank + oversample;
  const next = random(seed);
  const gaussian = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  const omega = new Float64Array(a.columns * width);
  for (let at = 0; at < omega.length; at += 1) omega[at] = gaussian();
  let y = times(a, omega, width);
  orthonormalise(y, a.rows, width);
  for (let step = 0; step < powerIterations; step += 1) {
    const z = timesTransposed(a, y, width);
    orthonormalise(z, a.columns, width);
    y = times(a, z, width);
    orthonormalise(y, a.rows, width);
  }
  // B = Qᵀ A, kept as Bᵀ (columns × width); B Bᵀ = (Bᵀ)ᵀ Bᵀ is width × width.
  const bt = timesTransposed(a, y, width);
  const gram = new Float64Array(width * width);
  for (let c = 0; c < a.columns; c += 1)
    for (let i = 0; i < width; i += 1) {
      const bi = bt[c * width + i] as number;
      if (bi === 0) continue;
      for (let j = 0; j < width; j += 1)
        gram[i * width + j] = (gram[i * width + j] as number) + bi * (bt[c * width + j] as number);
    }
  const { values, vectors } = symmetricEigen(gram, width);
  const order = [...values.keys()].sort((i, j) => (values[j] as number) - (values[i] as number)).slice(0, rank);
  // V S = Bᵀ U_B (the eigenvectors of B Bᵀ are the left singular vectors of B).
  const out = new Float64Array(a.columns * rank);
  for (let c = 0; c < a.columns; c += 1)
    for (let k = 0; k < rank; k += 1) {
      const e = order[k] as number;
      let sum = 0;
      for (let i = 0; i < width; i += 1) sum += (bt[c * width + i] as number) * (vectors[i * width + e] as number);
      out[c * rank + k] = sum;
    }
  return out;
}
