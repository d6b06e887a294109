import type { VectorMatrix } from "./vector-store.ts";

/** Reciprocal-rank fusion constant: damps the head of each list so neither ranker dominates. */
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
 * Fuses a chunk ranking (vector) and a path ranking (full text) into one chunk ranking. A
 * path's full-text rank is credited to its best vector-ranked chunk, or to its first chunk
 * when no chunk of it ranked by vector.
 */
export function fuse(matrix: VectorMatrix, vector: { row: number }[], fulltext: { path: string; rank: number }[]): { row: number; score: number }[] {
  const scores = new Map<number, number>();
  const bestRowOfPath = new Map<string, number>();
  vector.forEach(({ row }, i) => {
    scores.set(row, (scores.get(row) ?? 0) + 1 / (RRF_K + i + 1));
    if (!bestRowOfPath.has(matrix.paths[row]!)) bestRowOfPath.set(matrix.paths[row]!, row);
  });
  const firstRow = firstRowByPath(matrix);
  for (const { path, rank } of fulltext) {
    const row = bestRowOfPath.get(path) ?? firstRow.get(path);
    if (row === undefined) continue;
    scores.set(row, (scores.get(row) ?? 0) + 1 / (RRF_K + rank));
  }
  return [...scores].map(([row, score]) => ({ row, score })).sort((a, b) => b.score - a.score);
}

export function firstRowByPath(matrix: VectorMatrix): Map<string, number> {
  const first = new Map<string, number>();
  matrix.paths.forEach((p, r) => {
    if (!first.has(p)) first.set(p, r);
  });
  return first;
}
