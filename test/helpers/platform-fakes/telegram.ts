// The Telegram Bot API as the messenger uses it: `POST /bot<token>/<method>` answering
// `{ ok: true, result }` or `{ ok: false, error_code, description, parameters? }`, and file
// downloads at `/file/bot<token>/<file_path>`. A wrong token answers 401 as Telegram does.
import { startFakeServer, send, type FakeServer, type Recorded } from "./fake-server.ts";

export const BOT_TOKEN = "123456:AAbotTokenForTests-x9";

export interface TelegramFake extends FakeServer {
  /** Calls of one Bot API method, in order (their JSON bodies; `any`: whatever Muster sent, read field by field). */
  method(name: string): any[];
  /** Files getFile can hand out: file_id → bytes (and the size getFile reports). */
  files: Map<string, { bytes: Buffer; reportedSize?: number }>;
}

export async function startTelegramFake(): Promise<TelegramFake> {
  const files = new Map<string, { bytes: Buffer; reportedSize?: number }>();
  let messageId = 100;
  const fake = await startFakeServer((route, req: Recorded) => {
    const file = /^GET \/file\/bot([^/]+)\/(.+)$/.exec(route);
    if (file) {
      return (_r, res) => {
        const entry = file[1] === BOT_TOKEN ? files.get(file[2]!.replace(/^docs\//, "")) : undefined;
        if (!entry) return send(res, 404, { ok: false, error_code: 404, description: "Not Found" });
        res.writeHead(200, { "content-type": "application/octet-stream" });
        res.end(entry.bytes);
      };
    }
    const call = /^POST \/bot([^/]+)\/(\w+)$/.exec(route);
    if (!call) return undefined;
    return (_r, res) => {
      if (call[1] !== BOT_TOKEN) return send(res, 401, { ok: false, error_code: 401, description: "Unauthorized" });
      const body = req.json ?? {};
      switch (call[2]) {
        case "sendMessage":
          return send(res, 200, { ok: true, result: { message_id: ++messageId, chat: { id: body.chat_id, type: "private" }, date: Math.floor(Date.now() / 1000), text: body.text } });
        case "editMessageText":
          return send(res, 200, { ok: true, result: { message_id: body.message_id, chat: { id: body.chat_id }, text: body.text } });
        case "answerCallbackQuery":
          return send(res, 200, { ok: true, result: true });
        case "getFile": {
          const entry = files.get(body.file_id);
          if (!entry) return send(res, 400, { ok: false, error_code: 400, description: "Bad Request: invalid file_id" });
          return send(res, 200, { ok: true, result: { file_id: body.file_id, file_unique_id: `u${body.file_id}`, file_size: entry.reportedSize ?? entry.bytes.length, file_path: `docs/${body.file_id}` } });
        }
        default:
          return send(res, 404, { ok: false, error_code: 404, description: "Not Found: method not found" });
      }
    };
  });
  return Object.assign(fake, {
    files,
    method: (name: string) => fake.requests.filter((r) => r.method === "POST" && r.path === `/bot${BOT_TOKEN}/${name}`).map((r) => r.json),
  });
}
