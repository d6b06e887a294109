import type { EmbeddingProvider } from "./provider.ts";

/** Words of a text, lower-cased, with a light plural/verb suffix strip so "deploys" meets "deploy". */
export function terms(text: string): string[] {
  const words = text.toLowerCase().normalize("NFKD").replace(/\p{M}/gu, "").match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.filter((w) => w.length > 1 && !STOP.has(w)).map((w) => w.replace(/(?:ing|ed|es|s)$/u, "") || w);
}

const STOP = new Set("the a an and or of to in on for is are was were be by with at as it this that from we our you your i not".split(" "));

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * A deterministic hashing embedding (signed feature hashing of words and word pairs, with
 * sub-linear term weights): no model, always available, for tests and tiny machines. It
 * matches shared words, not meaning.
 */
export class HashProvider implements EmbeddingProvider {
  readonly id = "hash" as const;
  readonly name = "Hashing embedding (deterministic, offline)";
  readonly model = "fnv1a-words";
  readonly dimensions: number;
  constructor(dimensions: number) {
    this.dimensions = dimensions;
  }
  unavailableReason(): null {
    return null;
  }
  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.embedOne(t));
  }
  embedOne(text: string): Float32Array {
    const v = new Float32Array(this.dimensions);
    const ts = terms(text);
    const counts = new Map<string, number>();
    for (let i = 0; i < ts.length; i++) {
      counts.set(ts[i]!, (counts.get(ts[i]!) ?? 0) + 1);
      if (i > 0) counts.set(`${ts[i - 1]} ${ts[i]}`, (counts.get(`${ts[i - 1]} ${ts[i]}`) ?? 0) + 0.5);
    }
    for (const [feature, n] of counts) {
      const h = fnv1a(feature);
      v[h % this.dimensions]! += (h & 0x80000000 ? -1 : 1) * (1 + Math.log(n));
    }
    let norm = 0;
    for (const x of v) norm += x * x;
    if (norm === 0) v[0] = 1; // a text without words still gets a valid (uninformative) vector
    else for (let i = 0; i < v.length; i++) v[i]! /= Math.sqrt(norm);
    return v;
  }
}
