import type { WordVectors } from "./word-vector-cache.ts";

/**
 * SIF's smoothing constant (Arora et al. 2017, "A simple but tough-to-beat baseline for
 * sentence embeddings"): a word of probability p weighs a / (a + p), so frequent words
 * fade and rare, meaningful ones dominate.
 */
const SIF_A = 1e-3;
/** The common component is estimated from this many of the most frequent words. */
const COMMON_WORDS = 20_000;

/** Function words carry no topic; they are dropped before weighting (SIF alone leaves some weight on them). */
const STOP = new Set(
  (
    "a about above after again against all am an and any are as at be because been before being below between both but by can could did do does doing down during each few for from further had has have having he her here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out over own same she should so some such than that the their theirs them themselves then there these they this those through to too under until up very was we were what when where which while who whom why will with would you your yours yourself yourselves " +
    "s t d ll m re ve n't 's also us let get got may might must shall"
  ).split(" "),
);

/** GloVe's tokens are lower-case words, with inner hyphens, apostrophes and dots kept ("e-mail", "u.s."). */
const TOKEN = /[\p{L}\p{N}]+(?:['’.-][\p{L}\p{N}]+)*/gu;

/**
 * A sentence encoder over word vectors: the SIF-weighted mean of the text's known words,
 * minus its projection on the vocabulary's common direction (the component every sentence
 * shares, which otherwise makes unrelated texts look alike), L2-normalised.
 */
export class SentenceEncoder {
  private readonly v: WordVectors;
  private readonly rank = new Map<string, number>();
  private readonly weights: Float32Array;
  private readonly common: Float32Array;
  constructor(vectors: WordVectors) {
    this.v = vectors;
    vectors.words.forEach((w, i) => {
      if (w && !this.rank.has(w)) this.rank.set(w, i);
    });
    // Zipf's law estimates a word's probability from its frequency rank r: p ≈ 1 / (r · H_N).
    const n = vectors.words.length;
    const harmonic = Math.log(n) + 0.5772;
    this.weights = new Float32Array(n);
    for (let r = 0; r < n; r++) this.weights[r] = SIF_A / (SIF_A + 1 / ((r + 1) * harmonic));
    this.common = this.commonDirection();
  }

  get dimensions(): number {
    return this.v.dimensions;
  }

  /** Ranks of the text's known, non-stop words; unknown compounds fall back to their parts. */
  ranks(text: string): number[] {
    const out: number[] = [];
    const add = (token: string) => {
      if (STOP.has(token)) return;
      const r = this.rank.get(token);
      if (r !== undefined) out.push(r);
      return r;
    };
    for (const raw of text.toLowerCase().replace(/’/g, "'").match(TOKEN) ?? []) {
      if (STOP.has(raw)) continue;
      if (add(raw) === undefined && /['.-]/.test(raw)) for (const part of raw.split(/['.-]/)) if (part) add(part);
    }
    return out;
  }

  encode(text: string): Float32Array {
    const d = this.v.dimensions;
    const out = new Float32Array(d);
    const ranks = this.ranks(text);
    for (const r of ranks) {
      const w = this.weights[r]! * this.v.scales[r]!;
      const off = r * d;
      for (let j = 0; j < d; j++) out[j]! += w * this.v.quantised[off + j]!;
    }
    // No known word: the common direction itself, a fixed valid vector (normalising zeros would give NaN).
    if (ranks.length === 0) return this.common.slice();
    let dot = 0;
    for (let j = 0; j < d; j++) dot += out[j]! * this.common[j]!;
    for (let j = 0; j < d; j++) out[j]! -= dot * this.common[j]!;
    return normalise(out) ?? this.common.slice();
  }

  /** The unit mean of the most frequent words' vectors (a cheap stand-in for SIF's first principal component). */
  private commonDirection(): Float32Array {
    const d = this.v.dimensions;
    const mean = new Float32Array(d);
    const n = Math.min(COMMON_WORDS, this.v.words.length);
    for (let r = 0; r < n; r++) {
      const s = this.v.scales[r]!;
      for (let j = 0; j < d; j++) mean[j]! += s * this.v.quantised[r * d + j]!;
    }
    return normalise(mean) ?? Object.assign(new Float32Array(d), { 0: 1 });
  }
}

function normalise(v: Float32Array): Float32Array | null {
  let norm = 0;
  for (const x of v) norm += x * x;
  if (!(norm > 1e-12)) return null;
  const inv = 1 / Math.sqrt(norm);
  for (let j = 0; j < v.length; j++) v[j]! *= inv;
  return v;
}
