import type { SentenceEncoder } from "./sentence-encoder.ts";
import type { WordVectors } from "./word-vector-cache.ts";

/** A query word softly matches a corpus word at cosine ≥ this; the match counts (cos − τ) / (1 − τ), so an exact word counts 1. */
const MATCH_COSINE = 0.5;
/** Textbook BM25 constants (Robertson et al.): term-frequency saturation and length normalisation. */
const K1 = 1.2;
const B = 0.75;
/**
 * Query words matched at most: each costs a pass over the corpus vocabulary, so a long
 * query (up to 1,000 characters) keeps its rarest, most telling words, bounding the work.
 */
const MAX_QUERY_WORDS = 16;

/**
 * Soft BM25 over the indexed chunks: BM25 where a query word's "term frequency" in a chunk
 * counts every chunk word whose word vector is close to it, weighted by how close. Unlike
 * the mean vector of a chunk (diluted when one sentence of a long chunk is the answer), a
 * paraphrase word matches its synonym one to one, and BM25's length normalisation keeps long
 * chunks from winning merely by holding more words. Held in the `local` worker; chunks are
 * added and removed incrementally as the store changes.
 */
export class SoftMatchIndex {
  private readonly chunks = new Map<number, Int32Array>();
  /** Chunks containing each vocabulary word (by frequency rank), kept in step with `chunks`. */
  private readonly docFreq: Int32Array;
  private totalTokens = 0;
  private vocabulary: Int32Array | null = null;
  private readonly norms: Float32Array;
  private readonly encoder: SentenceEncoder;
  private readonly v: WordVectors;
  /**
   * Scratch of {@link rank}, kept between queries: per vocabulary word, 1 + the index of its
   * first (query word, weight) pair, 0 when none; every entry is 0 again after a query. A
   * fresh array per query (400,000 words: 1.6 MB) cost page faults, and its external memory
   * made V8 run a full collection in the worker every ~100 ms while a re-index ran (each
   * 11-30 ms, which queries waited out).
   */
  private readonly matchOf: Int32Array;
  /** Scratch for the per-chunk term frequencies and scores, grown as the corpus grows. */
  private tf = new Float32Array(0);
  private scores = new Float64Array(0);
  private sortedScores = new Float64Array(0);
  constructor(encoder: SentenceEncoder, vectors: WordVectors) {
    this.encoder = encoder;
    this.v = vectors;
    this.docFreq = new Int32Array(vectors.words.length);
    this.matchOf = new Int32Array(vectors.words.length);
    const d = vectors.dimensions;
    this.norms = new Float32Array(vectors.words.length);
    for (let r = 0; r < vectors.words.length; r++) {
      let s = 0;
      for (let j = 0; j < d; j++) s += vectors.quantised[r * d + j]! ** 2;
      this.norms[r] = s > 0 ? 1 / Math.sqrt(s) : 0;
    }
  }

  get size(): number {
    return this.chunks.size;
  }

  add(id: number, text: string): void {
    this.remove(id);
    const tokens = Int32Array.from(this.encoder.ranks(text));
    this.chunks.set(id, tokens);
    for (const r of new Set(tokens)) this.docFreq[r]!++;
    this.totalTokens += tokens.length;
    this.vocabulary = null;
  }

  remove(id: number): void {
    const tokens = this.chunks.get(id);
    if (!tokens) return;
    this.chunks.delete(id);
    for (const r of new Set(tokens)) this.docFreq[r]!--;
    this.totalTokens -= tokens.length;
    this.vocabulary = null;
  }

  /** Chunk ids by soft BM25 score, best first; chunks matching no query word are left out. */
  rank(query: string, limit: number): { id: number; score: number }[] {
    // Ranks are frequency ranks: the highest are the rarest words.
    const words = [...new Set(this.encoder.ranks(query))].sort((a, b) => b - a).slice(0, MAX_QUERY_WORDS);
    const n = this.chunks.size;
    if (words.length === 0 || n === 0) return [];
    // Each query word's matching corpus words: matchOf[rank] is 1 + the index of the rank's
    // first (query word, weight) pair in `pairs`, chained through `next` when several query words match it.
    const matchOf = this.matchOf;
    const matched: number[] = [];
    const pairs: { qi: number; weight: number; next: number }[] = [];
    const nq = words.length;
    const tf = this.scratchTf(n * nq);
    const df = new Int32Array(nq);
    try {
      const vocabulary = this.corpusVocabulary();
      words.forEach((q, qi) => {
        for (const r of vocabulary) {
          const c = r === q ? 1 : this.cosine(q, r);
          if (c < MATCH_COSINE) continue;
          if (matchOf[r] === 0) matched.push(r);
          pairs.push({ qi, weight: (c - MATCH_COSINE) / (1 - MATCH_COSINE), next: matchOf[r]! });
          matchOf[r] = pairs.length;
        }
      });
      let i = 0;
      for (const tokens of this.chunks.values()) {
        for (const r of tokens) for (let p = matchOf[r]!; p > 0; p = pairs[p - 1]!.next) tf[i * nq + pairs[p - 1]!.qi]! += pairs[p - 1]!.weight;
        for (let qi = 0; qi < nq; qi++) if (tf[i * nq + qi]! > 0) df[qi]!++;
        i++;
      }
    } finally {
      for (const r of matched) matchOf[r] = 0;
    }
    const ids = [...this.chunks.keys()];
    const lengths = Int32Array.from(this.chunks.values(), (t) => t.length);
    const idf = Array.from(df, (m) => Math.log(1 + (n - m + 0.5) / (m + 0.5)));
    const averageLength = this.totalTokens / n || 1;
    if (this.scores.length < n) {
      this.scores = new Float64Array(n * 2);
      this.sortedScores = new Float64Array(n * 2);
    }
    const scores = this.scores;
    for (let i = 0; i < n; i++) {
      const norm = K1 * (1 - B + (B * lengths[i]!) / averageLength);
      let s = 0;
      for (let qi = 0; qi < nq; qi++) {
        const f = tf[i * nq + qi]!;
        if (f > 0) s += (idf[qi]! * f * (K1 + 1)) / (f + norm);
      }
      scores[i] = s;
    }
    // Only the best `limit` are sorted as objects (most chunks match some common word).
    const sorted = this.sortedScores.subarray(0, n);
    sorted.set(scores.subarray(0, n));
    const cut = Math.max(sorted.sort().at(-Math.min(limit, n)) ?? 0, Number.MIN_VALUE);
    const top: { id: number; score: number }[] = [];
    for (let i = 0; i < n; i++) if (scores[i]! >= cut) top.push({ id: ids[i]!, score: scores[i]! });
    return top.sort((a, b) => b.score - a.score).slice(0, limit);
  }

  /** The term-frequency scratch, zeroed over its first `size` entries. */
  private scratchTf(size: number): Float32Array {
    if (this.tf.length < size) this.tf = new Float32Array(size * 2);
    this.tf.fill(0, 0, size);
    return this.tf;
  }

  private corpusVocabulary(): Int32Array {
    if (this.vocabulary) return this.vocabulary;
    const present: number[] = [];
    for (let r = 0; r < this.docFreq.length; r++) if (this.docFreq[r]! > 0) present.push(r);
    return (this.vocabulary = Int32Array.from(present));
  }

  private cosine(a: number, b: number): number {
    const d = this.v.dimensions;
    const q = this.v.quantised;
    let s = 0;
    for (let j = 0, x = a * d, y = b * d; j < d; j++) s += q[x + j]! * q[y + j]!;
    return s * this.norms[a]! * this.norms[b]!;
  }
}
