import { ragErrors } from "../errors.ts";

/**
 * Checks a provider's answer before anything is stored: one vector per text, each of the
 * expected size, every component a finite number. Returns L2-normalised Float32Arrays (so
 * cosine is a dot product). Any problem fails the whole batch.
 *
 * The checks run on the Float32 values that will be stored, not on the JSON numbers: a
 * finite double such as 1e308 becomes Infinity as a 32-bit float (and normalising then
 * turns every component into NaN), one below about 1e-45 becomes 0, so a vector the JSON
 * check would pass could poison the index without a sign.
 */
export function validateVectors(provider: string, raw: unknown, count: number, dimensions: number): Float32Array[] {
  const bad = (reason: string) => ragErrors.RAG_PROVIDER_BAD_RESPONSE({ provider, reason });
  if (!Array.isArray(raw)) throw bad("no list of vectors");
  if (raw.length !== count) throw bad(`${raw.length} vectors for ${count} texts`);
  return raw.map((v, i) => {
    if (!Array.isArray(v)) throw bad(`vector ${i} is not an array`);
    if (v.length !== dimensions) throw bad(`vector ${i} has ${v.length} dimensions, expected ${dimensions}`);
    const out = new Float32Array(dimensions);
    for (let j = 0; j < dimensions; j++) {
      const x = v[j];
      if (typeof x !== "number" || !Number.isFinite(x)) throw bad(`vector ${i} holds a non-finite value (${String(x)})`);
      out[j] = x;
      if (!Number.isFinite(out[j])) throw bad(`vector ${i} holds ${x}, beyond the range of a 32-bit float`);
    }
    // Summed in doubles over Float32 values (each below 3.5e38), so the sum cannot overflow.
    let norm = 0;
    for (let j = 0; j < dimensions; j++) norm += out[j]! * out[j]!;
    if (norm === 0) throw bad(`vector ${i} is all zeros as 32-bit floats`);
    const inv = 1 / Math.sqrt(norm);
    for (let j = 0; j < dimensions; j++) out[j]! *= inv;
    if (!out.every(Number.isFinite)) throw bad(`vector ${i} cannot be normalised`);
    return out;
  });
}
