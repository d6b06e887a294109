// The word vectors in a compact binary form: the package ships them as a 300 MB JSON file,
// which costs seconds and about a gigabyte to parse, so it is converted once (in the worker)
// and every later start reads the small binary file instead.
import { closeSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { crc32 } from "node:zlib";

/** Vectors quantised to Int8 with one Float32 scale per word (x ≈ q * scale), in frequency order. */
export interface WordVectors {
  /** Words by frequency rank (index = rank, 0 = most frequent). */
  words: string[];
  dimensions: number;
  scales: Float32Array;
  /** `words.length * dimensions` quantised components. */
  quantised: Int8Array;
}

const MAGIC = "MUSTERWV";
const FORMAT = 1;
/** magic(8) format(4) count(4) dimensions(4) vocabularyBytes(4) crc32 of the payload(4). */
const HEADER_BYTES = 28;

/** Serialises `v` and writes it atomically (temp file + rename), so a crash never leaves half a cache. */
export function writeCache(path: string, v: WordVectors): void {
  const vocabulary = Buffer.from(v.words.join("\n"), "utf8");
  const count = v.words.length;
  const payload = Buffer.concat([Buffer.from(v.scales.buffer, v.scales.byteOffset, count * 4), Buffer.from(v.quantised.buffer, v.quantised.byteOffset, count * v.dimensions), vocabulary]);
  const header = Buffer.alloc(HEADER_BYTES);
  header.write(MAGIC, 0, "latin1");
  header.writeUInt32LE(FORMAT, 8);
  header.writeUInt32LE(count, 12);
  header.writeUInt32LE(v.dimensions, 16);
  header.writeUInt32LE(vocabulary.length, 20);
  header.writeUInt32LE(crc32(payload), 24);
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(temp, Buffer.concat([header, payload]));
    renameSync(temp, path);
  } finally {
    rmSync(temp, { force: true });
  }
}

/**
 * Reads a cache file, or returns why it cannot be used (missing, truncated, wrong format,
 * checksum mismatch): the caller then rebuilds it.
 */
export function readCache(path: string): WordVectors | { invalid: string } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return { invalid: "missing" };
  }
  if (bytes.length < HEADER_BYTES || bytes.toString("latin1", 0, 8) !== MAGIC) return { invalid: "not a word-vector cache" };
  if (bytes.readUInt32LE(8) !== FORMAT) return { invalid: "another format version" };
  const count = bytes.readUInt32LE(12);
  const dimensions = bytes.readUInt32LE(16);
  const vocabularyBytes = bytes.readUInt32LE(20);
  const expected = HEADER_BYTES + count * 4 + count * dimensions + vocabularyBytes;
  if (count === 0 || dimensions === 0 || bytes.length !== expected) return { invalid: `length ${bytes.length}, expected ${expected}` };
  const payload = bytes.subarray(HEADER_BYTES);
  if (crc32(payload) !== bytes.readUInt32LE(24)) return { invalid: "checksum mismatch" };
  // Copies, so the typed arrays are aligned whatever the buffer's offset in Node's pool.
  const scales = new Float32Array(count);
  Buffer.from(scales.buffer).set(payload.subarray(0, count * 4));
  const quantised = new Int8Array(count * dimensions);
  Buffer.from(quantised.buffer).set(payload.subarray(count * 4, count * 4 + count * dimensions));
  const words = payload.toString("utf8", count * 4 + count * dimensions).split("\n");
  if (words.length !== count) return { invalid: "vocabulary size mismatch" };
  return { words, dimensions, scales, quantised };
}

/** Bytes read from the JSON per step: keeps the conversion's memory bounded whatever the file's size. */
const STEP_BYTES = 4 * 1024 * 1024;

/**
 * Converts the package's JSON (`{ dimensions, size, vectors: { word: [x1..xd, l2norm, rank] } }`)
 * by streaming its `vectors` object in slices, each parsed with JSON.parse: peak memory is
 * the output plus one slice, never the whole parsed file.
 */
export function convertJson(jsonPath: string, onStep: () => void = () => {}): WordVectors {
  const fd = openSync(jsonPath, "r");
  try {
    const buffer = Buffer.alloc(STEP_BYTES);
    const decoder = new StringDecoder("utf8");
    let position = 0;
    let text = "";
    const more = (): boolean => {
      const n = readSync(fd, buffer, 0, STEP_BYTES, position);
      position += n;
      text += decoder.write(buffer.subarray(0, n));
      onStep();
      return n > 0;
    };
    const head = '"vectors":{';
    let start = -1;
    while (start < 0) {
      if (!more()) throw new Error('no "vectors" object in the word-vector file');
      start = text.indexOf(head);
    }
    const meta = JSON.parse(`${text.slice(0, text.indexOf('"words":'))}"_":0}`) as { dimensions?: number; size?: number };
    const { dimensions, size } = meta;
    if (!dimensions || !size) throw new Error("the word-vector file has no dimensions or size");
    text = text.slice(start + head.length);
    const words: string[] = new Array<string>(size).fill("");
    const scales = new Float32Array(size);
    const quantised = new Int8Array(size * dimensions);
    const take = (entries: Record<string, number[]>) => {
      for (const [word, values] of Object.entries(entries)) {
        const rank = values[dimensions + 1];
        if (rank === undefined || rank < 0 || rank >= size || word.includes("\n")) continue;
        words[rank] = word;
        let max = 0;
        for (let j = 0; j < dimensions; j++) max = Math.max(max, Math.abs(values[j]!));
        const scale = max / 127 || 1;
        scales[rank] = scale;
        for (let j = 0; j < dimensions; j++) quantised[rank * dimensions + j] = Math.round(values[j]! / scale);
      }
    };
    for (;;) {
      const eof = !more();
      // The object ends with the last entry's rank (a digit), `]` and `}`.
      const end = text.search(/\d\]\}/);
      if (end >= 0) {
        take(JSON.parse(`{${text.slice(0, end + 3)}`) as Record<string, number[]>);
        break;
      }
      const cut = lastEntryEnd(text);
      if (cut >= 0) {
        take(JSON.parse(`{${text.slice(0, cut + 1)}}`) as Record<string, number[]>);
        text = text.slice(cut + 2);
      }
      if (eof) throw new Error("the word-vector file ends early");
    }
    return { words, dimensions, scales, quantised };
  } finally {
    closeSync(fd);
  }
}

/** Index of the `]` closing the last complete `"word":[...,rank]` entry in `text`, or -1. */
function lastEntryEnd(text: string): number {
  let i = text.lastIndexOf("],\"");
  // A key may itself contain `],"`; a real entry end has the rank's last digit before `]`.
  while (i > 0 && !/\d/.test(text[i - 1]!)) i = text.lastIndexOf("],\"", i - 1);
  return i;
}
