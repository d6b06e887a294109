import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestHost, removeHome, type TestHost } from "../../helpers/start-test-host.ts";
import { scaled } from "../../helpers/time-scale.ts";
import { DEFAULT_BLOCKED_RANGES } from "../../../core/plugin-api/address-policy.ts";
import type { ApiBody } from "@muster/plugin/testing";

// Two hosts: `strict` runs the production address policy (127.0.0.1 is refused, so the
// local test server below cannot be reached); `open` is configured through the plugin's
// `blockedAddressRanges` to allow 127.0.0.1 only, so a successful URL import can be tested
// against a real HTTP server (none other than loopback exists here). 127.0.0.2 stays
// blocked on `open`, for redirect checks.
const t = suite<{ strict: TestHost; open: TestHost; server: Server; base: string; hits: string[]; outside: string }>("skills");

t.before(async (ctx) => {
  ctx.hits = [];
  ctx.server = createServer((req, res) => {
    ctx.hits.push(req.url!);
    const port = (ctx.server.address() as AddressInfo).port;
    switch (req.url) {
      case "/skill.md":
        res.writeHead(200, { "content-type": "text/markdown; charset=utf-8" }).end("# Code review\n\nRead the diff twice.\n");
        return;
      case "/plain.txt":
        res.writeHead(200, { "content-type": "text/plain" }).end("No heading here.");
        return;
      case "/page.html":
        res.writeHead(200, { "content-type": "text/html" }).end("<html><head><style>p{}</style><script>alert(1)</script></head><body><h1>Deploy</h1><p>Ship &amp; check.</p></body></html>");
        return;
      case "/big":
        res.writeHead(200, { "content-type": "text/plain" }).end("x".repeat(300 * 1024));
        return;
      case "/big-chunked":
        res.writeHead(200, { "content-type": "text/plain" });
        for (let i = 0; i < 300; i++) res.write("y".repeat(1024));
        res.end();
        return;
      case "/binary":
        res.writeHead(200, { "content-type": "application/octet-stream" }).end(Buffer.from([0, 1, 2, 3]));
        return;
      case "/nul":
        res.writeHead(200, { "content-type": "text/plain" }).end(Buffer.from([0x41, 0, 0x42]));
        return;
      case "/slow":
        return; // never answers
      case "/missing":
        res.writeHead(404).end("nope");
        return;
      case "/redirect":
        res.writeHead(302, { location: "/skill.md" }).end();
        return;
      case "/redirect-blocked":
        res.writeHead(302, { location: `http://127.0.0.2:${port}/skill.md` }).end();
        return;
      case "/redirect-metadata":
        res.writeHead(301, { location: "http://169.254.169.254/latest/meta-data/" }).end();
        return;
      case "/redirect-file":
        res.writeHead(302, { location: "file:///etc/passwd" }).end();
        return;
      case "/loop":
        res.writeHead(302, { location: "/loop" }).end();
        return;
      default:
        res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => ctx.server.listen(0, "127.0.0.1", resolve));
  ctx.base = `http://127.0.0.1:${(ctx.server.address() as AddressInfo).port}`;
  ctx.strict = await startTestHost({ config: { scaffoldWorkspace: false } });
  const openRanges = [...DEFAULT_BLOCKED_RANGES.filter((r) => r !== "127.0.0.0/8"), "127.0.0.2/32"];
  ctx.open = await startTestHost({ config: { scaffoldWorkspace: false, pluginConfig: { skills: { blockedAddressRanges: openRanges, fetchTimeoutMs: scaled(700) } } } });
  ctx.outside = mkdtempSync(join(tmpdir(), "muster-outside-"));
});
t.after(async (ctx) => {
  ctx.server.closeAllConnections();
  ctx.server.close();
  for (const h of [ctx.strict, ctx.open]) {
    await h.stop();
    removeHome(h.home);
  }
  rmSync(ctx.outside, { recursive: true, force: true });
});

const post = (h: TestHost, body: unknown) => h.json<ApiBody<"postSkillsImport">>("/api/skills/import", { method: "POST", body });
const skillFiles = (h: TestHost) => {
  const root = join(h.workspace, "skills");
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true }).map(String).sort();
};

t("GET with no skills directory lists nothing", async ({ strict }) => {
  rmSync(join(strict.workspace, "skills"), { recursive: true, force: true });
  const res = await strict.json<ApiBody<"getSkillsImport">>("/api/skills/import");
  assert.is(res.status, 200);
  assert.equal(res.body, { ok: true, categories: [] });
});

t("POST raw content: 201, slugged file, header added when the content has none; GET lists it", async ({ strict }) => {
  const res = await post(strict, { name: "Code Review", category: "dev", content: "Read the diff twice." });
  assert.is(res.status, 201);
  assert.is(res.body.ok, true);
  assert.equal({ ...res.body.skill, size: 0 }, { name: "code-review", category: "dev", path: "skills/dev/code-review.md", size: 0 });
  const file = readFileSync(join(strict.workspace, "skills/dev/code-review.md"), "utf8");
  assert.is(res.body.skill.size, Buffer.byteLength(file));
  assert.ok(file.startsWith("# Skill — Code Review\n\n**Source:** raw content\n**Imported:** "));
  assert.ok(file.endsWith("Read the diff twice.\n"));
  await post(strict, { name: "deploy", category: "ops", content: "# Deploy\nSteps." });
  assert.is(readFileSync(join(strict.workspace, "skills/ops/deploy.md"), "utf8"), "# Deploy\nSteps.\n");
  mkdirSync(join(strict.workspace, "skills/empty"));
  writeFileSync(join(strict.workspace, "skills/dev/notes.txt"), "not a skill");
  const list = await strict.json<ApiBody<"getSkillsImport">>("/api/skills/import");
  assert.equal(list.body.categories, [
    { category: "dev", skills: ["code-review"] },
    { category: "ops", skills: ["deploy"] },
  ]);
});

t("an existing skill is a 409 unless overwrite is set; no temporary files remain", async ({ strict }) => {
  const again = await post(strict, { name: "code review", category: "dev", content: "other" });
  assert.is(again.status, 409);
  assert.is(again.body.error?.code, "SKILLS_SKILL_EXISTS");
  assert.ok(readFileSync(join(strict.workspace, "skills/dev/code-review.md"), "utf8").includes("Read the diff twice."));
  const replaced = await post(strict, { name: "code review", category: "dev", content: "# New\n", overwrite: true });
  assert.is(replaced.status, 201);
  assert.is(readFileSync(join(strict.workspace, "skills/dev/code-review.md"), "utf8"), "# New\n");
  assert.not.ok(skillFiles(strict).some((f) => f.endsWith(".tmp")));
});

t("SSRF: loopback, private, link-local, CGNAT, unique-local and unspecified URLs are refused before any connection", async ({ strict, base, hits }) => {
  const port = base.split(":")[2];
  const before = skillFiles(strict);
  const urls = [
    `${base}/skill.md`,
    `http://localhost:${port}/skill.md`,
    `http://[::1]:${port}/skill.md`,
    `http://[::ffff:127.0.0.1]:${port}/skill.md`,
    `http://[::ffff:7f00:1]:${port}/skill.md`,
    `http://[::127.0.0.1]:${port}/skill.md`,
    `http://[64:ff9b::7f00:1]:${port}/skill.md`,
    `http://2130706433:${port}/skill.md`,
    `http://0x7f.1:${port}/skill.md`,
    `http://0.0.0.0:${port}/skill.md`,
    "http://10.1.2.3/skill.md",
    "http://172.16.0.1/skill.md",
    "http://192.168.1.1/skill.md",
    "http://169.254.169.254/latest/meta-data/",
    "http://100.64.0.1/",
    "http://[fd00::1]/",
    "http://[fe80::1]/",
    "http://[::]/",
  ];
  hits.length = 0;
  for (const url of urls) {
    const res = await post(strict, { name: "x", category: "ssrf", url });
    assert.is(res.status, 403, url);
    assert.is(res.body.error?.code, "SKILLS_URL_BLOCKED", url);
  }
  assert.equal(hits, [], "no request reached the server");
  assert.equal(skillFiles(strict), before);
});

t("URLs that are not http(s) or carry credentials are refused", async ({ strict }) => {
  for (const url of ["file:///etc/passwd", "ftp://example.com/x", "gopher://127.0.0.1:70/", "javascript:alert(1)", "data:text/plain,hi", "not a url", "http://user:pw@example.com/"]) {
    const res = await post(strict, { name: "x", category: "ssrf", url });
    assert.is(res.status, 400, url);
    assert.is(res.body.error?.code, "SKILLS_URL_INVALID", url);
  }
});

t("URL import from an allowed host: markdown kept, plain text gets a header, HTML stripped, redirect followed", async ({ open, base }) => {
  const md = await post(open, { name: "review", category: "dev", url: `${base}/skill.md` });
  assert.is(md.status, 201);
  assert.is(readFileSync(join(open.workspace, "skills/dev/review.md"), "utf8"), "# Code review\n\nRead the diff twice.\n");
  const plain = await post(open, { name: "plain", category: "dev", url: `${base}/plain.txt` });
  assert.is(plain.status, 201);
  assert.ok(readFileSync(join(open.workspace, "skills/dev/plain.md"), "utf8").includes(`**Source:** ${base}/plain.txt`));
  const html = await post(open, { name: "deploy", category: "ops", url: `${base}/page.html` });
  assert.is(html.status, 201);
  const text = readFileSync(join(open.workspace, "skills/ops/deploy.md"), "utf8");
  assert.ok(text.includes("Deploy") && text.includes("Ship & check."));
  assert.not.ok(/alert|<script|<p>|p\{\}/.test(text));
  const redirected = await post(open, { name: "redirected", category: "dev", url: `${base}/redirect` });
  assert.is(redirected.status, 201);
});

t("redirects to blocked addresses or other schemes, and redirect loops, are refused", async ({ open, base, hits }) => {
  const before = skillFiles(open);
  hits.length = 0;
  const blocked = await post(open, { name: "a", category: "r", url: `${base}/redirect-blocked` });
  assert.is(blocked.status, 403);
  assert.is(blocked.body.error?.code, "SKILLS_URL_BLOCKED");
  const metadata = await post(open, { name: "a", category: "r", url: `${base}/redirect-metadata` });
  assert.is(metadata.status, 403);
  const file = await post(open, { name: "a", category: "r", url: `${base}/redirect-file` });
  assert.is(file.status, 400);
  assert.is(file.body.error?.code, "SKILLS_URL_INVALID");
  const loop = await post(open, { name: "a", category: "r", url: `${base}/loop` });
  assert.is(loop.status, 502);
  assert.is(loop.body.error?.code, "SKILLS_FETCH_FAILED");
  assert.is(hits.filter((h) => h === "/loop").length, 4, "the first request and three redirects");
  assert.equal(skillFiles(open), before);
});

t("size cap, timeout, binary and upstream errors", async ({ open, base }) => {
  const before = skillFiles(open);
  for (const [path, status, code] of [
    ["/big", 413, "SKILLS_CONTENT_TOO_LARGE"],
    ["/big-chunked", 413, "SKILLS_CONTENT_TOO_LARGE"],
    ["/binary", 422, "SKILLS_CONTENT_NOT_TEXT"],
    ["/nul", 422, "SKILLS_CONTENT_NOT_TEXT"],
    ["/missing", 502, "SKILLS_FETCH_FAILED"],
    ["/slow", 504, "SKILLS_FETCH_TIMEOUT"],
  ] as const) {
    const started = Date.now();
    const res = await post(open, { name: "a", category: "limits", url: `${base}${path}` });
    assert.is(res.status, status, path);
    assert.is(res.body.error?.code, code, path);
    assert.ok(Date.now() - started < scaled(5000), path);
  }
  const closedPort = await post(open, { name: "a", category: "limits", url: "http://127.0.0.1:1/" });
  assert.is(closedPort.status, 502);
  assert.equal(skillFiles(open), before);
});

t("a host name is refused when any of its addresses is blocked", async ({ open, base, hits }) => {
  const { lookup } = await import("node:dns/promises");
  const port = base.split(":")[2];
  const addresses = (await lookup("localhost", { all: true })).map((a) => a.address);
  hits.length = 0;
  const res = await post(open, { name: "via-name", category: "dns", url: `http://localhost:${port}/skill.md` });
  if (addresses.some((a) => a !== "127.0.0.1")) {
    // localhost also maps to ::1 here, which the open host still blocks.
    assert.is(res.status, 403);
    assert.equal(hits, []);
  } else {
    assert.is(res.status, 201);
    assert.equal(hits, ["/skill.md"]);
  }
});

t("raw content over the size cap is refused", async ({ strict }) => {
  const before = skillFiles(strict);
  const res = await post(strict, { name: "huge", category: "dev", content: "# Huge\n" + "x".repeat(300 * 1024) });
  assert.is(res.status, 413);
  assert.is(res.body.error?.code, "SKILLS_CONTENT_TOO_LARGE");
  assert.equal(skillFiles(strict), before);
});

t("bad bodies and path tricks in name or category are refused and write nothing", async ({ strict }) => {
  const before = skillFiles(strict);
  const cases: [unknown, string][] = [
    [{ name: "x", category: "dev" }, "neither content nor url"],
    [{ name: "x", category: "dev", content: "a", url: "http://example.com" }, "both"],
    [{ name: "x", category: "dev", content: "" }, "empty content"],
    [{ name: "x", category: "dev", content: "a\u0000b" }, "NUL"],
    [{ name: "../../evil", category: "dev", content: "a" }, "name traversal"],
    [{ name: "x", category: "../../evil", content: "a" }, "category traversal"],
    [{ name: "x", category: "%2e%2e", content: "a" }, "encoded"],
    [{ name: "x", category: "/etc", content: "a" }, "absolute"],
    [{ name: "x", category: "..", content: "a" }, "parent"],
    [{ name: "a/b", category: "dev", content: "a" }, "slash in name"],
    [{ name: "x", category: "Dev", content: "a" }, "upper-case category"],
    [{ name: "", category: "dev", content: "a" }, "empty name"],
    [{ name: "x", category: "dev", content: "a", path: "/tmp/x" }, "unknown field"],
    [{ name: 5, category: "dev", content: "a" }, "wrong type"],
  ];
  for (const [body, label] of cases) {
    const res = await post(strict, body);
    assert.is(res.status, 400, label);
    assert.is(res.body.error?.code, "VALIDATION_FAILED", label);
  }
  assert.equal(skillFiles(strict), before);
});

t("a category directory that is a symlink out of the workspace is refused and not listed", async ({ strict, outside }) => {
  symlinkSync(outside, join(strict.workspace, "skills/linked"));
  const res = await post(strict, { name: "x", category: "linked", content: "# x" });
  assert.is(res.status, 400);
  assert.is(res.body.error?.code, "PATH_OUTSIDE_WORKSPACE");
  assert.equal(readdirSync(outside), []);
  writeFileSync(join(outside, "leak.md"), "secret");
  const list = await strict.json<ApiBody<"getSkillsImport">>("/api/skills/import");
  assert.not.ok(list.body.categories.some((c) => c.category === "linked"));
});

t.run();
