/** A Bot API call that did not succeed; the message never contains the bot token (it is in the URL only). */
export class TelegramError extends Error {
  readonly status: number | null;
  readonly retryAfterMs: number | null;
  constructor(message: string, status: number | null, retryAfterMs: number | null = null) {
    super(message);
    this.name = "TelegramError";
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }

  /** Worth another attempt: no answer, 429 or 5xx. */
  get retryable(): boolean {
    return this.status === null || this.status === 429 || this.status >= 500;
  }
}

interface BotAnswer<T> {
  ok: boolean;
  result?: T;
  description?: string;
  error_code?: number;
  parameters?: { retry_after?: number };
}

/** Bot API file paths look like `photos/file_1.jpg`; anything else is refused before a URL is built. */
const FILE_PATH = /^(?!.*\.\.)[A-Za-z0-9_][A-Za-z0-9_./-]{0,255}$/;

export interface TelegramClientDeps {
  apiBaseUrl: string;
  timeoutMs: number;
  /** Cuts stored secret values out of text (the vault's redaction). */
  redact: (text: string) => string;
}

/** The Telegram Bot API over fetch, base URL from configuration, with a deadline per call. */
export class TelegramClient {
  private readonly deps: TelegramClientDeps;
  constructor(deps: TelegramClientDeps) {
    this.deps = deps;
  }

  /** An error description from Telegram may echo what it was sent: the token and every stored secret value are cut out. */
  private clean(text: string, token: string): string {
    return this.deps.redact(text.split(token).join("[redacted:TELEGRAM_BOT_TOKEN]")).slice(0, 300);
  }

  async call<T>(token: string, method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.deps.apiBaseUrl}/bot${token}/${method}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(params),
        redirect: "error",
        signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(this.deps.timeoutMs)]) : AbortSignal.timeout(this.deps.timeoutMs),
      });
    } catch (error) {
      throw new TelegramError(`${method}: no answer (${(error as Error)?.name ?? "error"})`, null);
    }
    let body: BotAnswer<T> | null = null;
    try {
      body = (await res.json()) as BotAnswer<T>;
    } catch {
      // Not JSON: reported by status below.
    }
    if (res.ok && body?.ok) return body.result as T;
    const retryAfter = body?.parameters?.retry_after;
    throw new TelegramError(`${method}: HTTP ${res.status}${body?.description ? `: ${this.clean(String(body.description), token)}` : ""}`, res.status, typeof retryAfter === "number" ? retryAfter * 1000 : null);
  }

  /** Downloads a file found with getFile, cut off past `maxBytes` (the declared size is not trusted). */
  async download(token: string, filePath: string, maxBytes: number): Promise<Buffer> {
    if (!FILE_PATH.test(filePath)) throw new TelegramError("download: the file path Telegram gave is not a plain relative path", null);
    let res: Response;
    try {
      res = await fetch(`${this.deps.apiBaseUrl}/file/bot${token}/${filePath}`, { redirect: "error", signal: AbortSignal.timeout(this.deps.timeoutMs) });
    } catch (error) {
      throw new TelegramError(`download: no answer (${(error as Error)?.name ?? "error"})`, null);
    }
    if (!res.ok) throw new TelegramError(`download: HTTP ${res.status}`, res.status);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body ?? []) {
      size += chunk.byteLength;
      if (size > maxBytes) {
        await res.body?.cancel().catch(() => {});
        throw new MediaTooLarge(maxBytes);
      }
      chunks.push(Buffer.from(chunk));
    }
    return Buffer.concat(chunks);
  }
}

export class MediaTooLarge extends Error {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`larger than ${maxBytes} bytes`);
    this.name = "MediaTooLarge";
    this.maxBytes = maxBytes;
  }
}
