// The messenger's media on two instances of one PostgreSQL database (issue 25): a photo sent to
// the bot is stored by whichever instance answers Telegram's webhook, and `GET
// /api/messenger/media/:id` serves it through either instance (its bytes are in its
// `messenger_media` row on PostgreSQL). Before, the file went under the answering instance's
// MUSTER_HOME/media, where the other instance (and its clients) could not read it. One cluster
// for the file, always stopped; skipped, with the reason printed, without PostgreSQL's binaries.
import * as assert from "uvu/assert";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ApiBody } from "@muster/plugin/testing";
import { activitiesPlugin } from "../../plugins/activities/index.ts";
import { approvalsPlugin } from "../../plugins/approvals/index.ts";
import { messengerPlugin } from "../../plugins/messenger/index.ts";
import { notificationsPlugin } from "../../plugins/notifications/index.ts";
import { vaultPlugin } from "../../plugins/vault/index.ts";
import { removeHome, startTestHost, type TestHost } from "../helpers/start-test-host.ts";
import { startTelegramFake } from "../helpers/platform-fakes/telegram.ts";
import { PNG } from "../helpers/platform-fakes/linkedin.ts";
import { waitUntil } from "../helpers/wait.ts";
import { postgresSuite, psql } from "../helpers/postgres-cluster.ts";
import { configure, deliver, message, messengerOptions } from "../plugins/messenger/helpers.ts";

const { t, test, database } = postgresSuite("messenger media across two instances on PostgreSQL");

test("team: a photo stored by the instance answering the webhook is served by GET /api/messenger/media/:id through both; no instance keeps a file of it", async () => {
  const url = await database();
  const tg = await startTelegramFake();
  const base = messengerOptions(tg.url);
  const options = { ...base, plugins: [activitiesPlugin, notificationsPlugin, approvalsPlugin, vaultPlugin, messengerPlugin], env: { DATABASE_URL: url } };
  const hosts: TestHost[] = [];
  try {
    const a = await startTestHost(options);
    hosts.push(a);
    const b = await startTestHost({ ...options, workspace: a.workspace });
    hosts.push(b);
    await configure(a);
    tg.files.set("team-photo", { bytes: PNG });
    // B's view of the vault reloads with A's saves (NOTIFY): then B is configured too.
    const saved = await waitUntil(async () => {
      const res = await deliver(b, message({ document: { file_id: "team-photo", mime_type: "image/png", file_size: PNG.length } }));
      return res.status === 200 ? res : undefined;
    }, { label: "B took the webhook" });
    assert.equal(saved.body, { ok: true, outcome: "handled" });
    assert.match(tg.method("sendMessage").at(-1).text, /^Saved \(\d+ bytes\)/);
    const id = psql(url, "SELECT id FROM messenger_media");
    assert.match(id, /^[0-9a-f-]{36}$/);

    for (const h of [a, b]) {
      const res = await h.request(`/api/messenger/media/${id}`);
      assert.is(res.status, 200, h === a ? "through the instance that did not store it" : "through the one that did");
      assert.is(res.headers.get("content-type"), "image/png");
      assert.ok(Buffer.from(await res.arrayBuffer()).equals(PNG), "the stored bytes");
      assert.not.ok(existsSync(join(h.home, "media")), "no file under the instance's home");
      const status = await h.json<ApiBody<"getMessenger">>("/api/messenger");
      assert.equal([status.body.media.saved, status.body.media.bytes], [1, PNG.length]);
    }
    const missing = await a.json(`/api/messenger/media/${crypto.randomUUID()}`);
    assert.is(missing.status, 404);
    assert.is((missing.body as { error?: { code?: string } }).error?.code, "MESSENGER_MEDIA_NOT_FOUND");
  } finally {
    for (const h of hosts.reverse()) {
      await h.stop();
      removeHome(h.home);
    }
    await tg.close();
  }
});

t.run();
