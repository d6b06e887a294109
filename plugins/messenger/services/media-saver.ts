import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TelegramMessage } from "./telegram-update.ts";
import { messengerErrors } from "../errors.ts";
import { MediaTooLarge, type TelegramClient } from "./telegram-client.ts";
import type { UpdateStore } from "./update-store.ts";

/** What the first bytes of each accepted type look like; a file that does not match its type is refused. */
const SIGNATURES: Record<string, { ext: string; matches: (b: Buffer) => boolean }> = {
  "image/jpeg": { ext: "jpg", matches: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  "image/png": { ext: "png", matches: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  "image/gif": { ext: "gif", matches: (b) => b.subarray(0, 4).toString("latin1") === "GIF8" },
  "image/webp": { ext: "webp", matches: (b) => b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP" },
  "application/pdf": { ext: "pdf", matches: (b) => b.subarray(0, 5).toString("latin1") === "%PDF-" },
  "text/plain": { ext: "txt", matches: (b) => !b.includes(0) },
};

export type MediaOutcome = { saved: { id: string; path: string; mimeType: string; sizeBytes: number } } | { refused: string };

export interface MediaSaverDeps {
  client: TelegramClient;
  store: UpdateStore;
  home: string;
  maxBytes: number;
  types: readonly string[];
  /** Team mode: the bytes go into the database row, readable through every instance (entities/media-file.ts). */
  inDatabase: boolean;
}

/**
 * Stores a photo or document from the chat under `MUSTER_HOME/media/<uuid>.<ext>` (in team
 * mode its bytes in its `messenger_media` row, under that name): the type
 * must be allowed (declared, then checked against the file's first bytes), the size within
 * the limit (declared, then counted while downloading). The sender's file name is never used.
 */
export class MediaSaver {
  private readonly deps: MediaSaverDeps;
  constructor(deps: MediaSaverDeps) {
    this.deps = deps;
  }

  async save(token: string, updateId: number, message: TelegramMessage): Promise<MediaOutcome> {
    const { maxBytes, types } = this.deps;
    const photo = message.photo?.at(-1);
    const file = photo ? { file_id: photo.file_id, file_size: photo.file_size, mime_type: "image/jpeg" } : message.document;
    if (!file) return { refused: "no photo or document in the message" };
    const mimeType = (file.mime_type ?? "").toLowerCase();
    if (!types.includes(mimeType)) return { refused: `type ${mimeType || "unknown"} is not accepted (accepted: ${types.join(", ")})` };
    if (file.file_size !== undefined && file.file_size > maxBytes) return { refused: `the file is ${file.file_size} bytes; at most ${maxBytes}` };
    const found = await this.deps.client.call<{ file_path?: string; file_size?: number }>(token, "getFile", { file_id: file.file_id });
    if (!found.file_path) return { refused: "Telegram gave no file path (the file may be over the Bot API's download limit)" };
    if (found.file_size !== undefined && found.file_size > maxBytes) return { refused: `the file is ${found.file_size} bytes; at most ${maxBytes}` };
    let bytes: Buffer;
    try {
      bytes = await this.deps.client.download(token, found.file_path, maxBytes);
    } catch (error) {
      if (error instanceof MediaTooLarge) return { refused: `the file is larger than ${maxBytes} bytes` };
      throw error;
    }
    const signature = SIGNATURES[mimeType]!;
    if (!signature.matches(bytes)) return { refused: `the file's content is not ${mimeType}` };
    const id = randomUUID();
    const path = join("media", `${id}.${signature.ext}`);
    if (!this.deps.inDatabase) {
      mkdirSync(join(this.deps.home, "media"), { recursive: true, mode: 0o700 });
      writeFileSync(join(this.deps.home, path), bytes, { flag: "wx", mode: 0o600 });
    }
    const saved = { id, path, mimeType, sizeBytes: bytes.byteLength };
    await this.deps.store.addMedia({ ...saved, updateId, createdAt: new Date().toISOString(), content: this.deps.inDatabase ? bytes : null });
    return { saved };
  }

  /** A stored file's type and bytes (`GET /api/messenger/media/:id`), from its row in team mode, else from its file. */
  async read(id: string): Promise<{ mimeType: string; bytes: Buffer; name: string }> {
    const row = await this.deps.store.mediaContent(id);
    if (!row) throw messengerErrors.MESSENGER_MEDIA_NOT_FOUND({ id });
    const name = row.path.slice(row.path.lastIndexOf("/") + 1);
    if (row.content) return { mimeType: row.mimeType, bytes: Buffer.from(row.content), name };
    try {
      return { mimeType: row.mimeType, bytes: readFileSync(join(this.deps.home, row.path)), name };
    } catch (error) {
      // Recorded but removed from the home since (by hand): gone as far as anyone can read.
      if ((error as NodeJS.ErrnoException).code === "ENOENT") throw messengerErrors.MESSENGER_MEDIA_NOT_FOUND({ id });
      throw error;
    }
  }
}
