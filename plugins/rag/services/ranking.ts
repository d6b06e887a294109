import type { VectorMatrix } from "./vector-store.ts";

/** Reciprocal-rank constant (as in RRF): a rank r scores 1 / (60 + r). */
const RRF_K = 60;

/** Chunk rows of the matrix by cosine with `query` (vectors are unit length), best first. */
export function vectorRanking(matrix: VectorMatrix, query: Float32Array, limit: number): { row: number; score: number }[] {
  const d = matrix.dimensions;
  const n = matrix.ids.length;
  const top: { row: number; score: number }[] = [];
  for (let r = 0; r < n; r++) {
    let s = 0;
    const off = r * d;
    for (let j = 0; j < d; j++) s += matrix.vectors[off + j]! * query[j]!;
    if (top.length < limit || s > top[top.length - 1]!.score) {
      top.push({ row: r, score: s });
      top.sort((a, b) => b.score - a.score);
      if (top.length > limit) top.pop();
    }
  }
  return top;
}

/**
 * Fuses a chunk ranking (vector) and a path ranking (full text) into one chunk ranking by
 * the best reciprocal rank a chunk has in either (CombMAX of reciprocal ranks), ties broken
 * by their sum. Summing alone (plain RRF) buries the top hit of one ranker that the other
 * missed under documents both rank as mediocre; the maximum interleaves the two heads, so
 * hybrid finds what either finds near its top. A path's full-text rank is credited to its
 * best vector-ranked chunk, or to its first chunk when no chunk of it ranked by vector.
 * `words`, the soft word-match ranking of providers with word vectors (chunks, like
 * `vector`), joins the same way. The score is that best reciprocal rank, 1 / (60 + rank).
 */
export function fuse(matrix: VectorMatrix, vector: { row: number }[], fulltext: { path: string; rank: number }[], words: { row: number }[] = []): { row: number; score: number }[] {
  const scores = new Map<number, { best: number; sum: number }>();
  const credit = (row: number, rr: number) => {
    const s = scores.get(row) ?? { best: 0, sum: 0 };
    scores.set(row, { best: Math.max(s.best, rr), sum: s.sum + rr });
  };
  const bestRowOfPath = new Map<string, number>();
  vector.forEach(({ row }, i) => {
    credit(row, 1 / (RRF_K + i + 1));
    if (!bestRowOfPath.has(matrix.paths[row]!)) bestRowOfPath.set(matrix.paths[row]!, row);
  });
  words.forEach(({ row }, i) => credit(row, 1 / (RRF_K + i + 1)));
  const firstRow = firstRowByPath(matrix);
  for (const { path, rank } of fulltext) {
    const row = bestRowOfPath.get(path) ?? firstRow.get(path);
    if (row !== undefined) credit(row, 1 / (RRF_K + rank));
  }
  return [...scores]
    .sort(([, a], [, b]) => b.best - a.best || b.sum - a.sum)
    .map(([row, s]) => ({ row, score: s.best }));
}

/** `derive(matrix)`, computed once per loaded matrix (a reload makes a new one; callers must not change the result). */
function perMatrix<T>(derive: (matrix: VectorMatrix) => T): (matrix: VectorMatrix) => T {
  const memo = new WeakMap<VectorMatrix, T>();
  return (matrix) => {
    let value = memo.get(matrix);
    if (value === undefined) memo.set(matrix, (value = derive(matrix)));
    return value;
  };
}

/** Path → the row of its first chunk (full-text ranks are credited there), built once per loaded matrix rather than per query. */
export const firstRowByPath = perMatrix((matrix) => {
  const first = new Map<string, number>();
  matrix.paths.forEach((p, r) => {
    if (!first.has(p)) first.set(p, r);
  });
  return first;
});

/** Chunk id → matrix row, built once per loaded matrix. */
export const rowsById = perMatrix((matrix) => new Map(matrix.ids.map((id, r) => [id, r])));
