import Database from "better-sqlite3";
import { atomically } from "./core/plugin-api/atomic-step.ts";
const db = new Database(":memory:");
db.exec(`CREATE TABLE usage_rollup (agentId TEXT NOT NULL, bucket INTEGER NOT NULL, inputTokens INTEGER NOT NULL, outputTokens INTEGER NOT NULL, costCents INTEGER NOT NULL, events INTEGER NOT NULL, PRIMARY KEY (agentId, bucket));
CREATE INDEX usage_rollup_bucket ON usage_rollup (bucket);`);
const ins = db.prepare("INSERT INTO usage_rollup VALUES (?, ?, 1, 1, 1, 1)");
const now = Math.floor(Date.now() / 900000);
db.transaction(() => { for (let a = 0; a < 20; a++) for (let b = now - 35000; b <= now; b++) ins.run(`agent-${a}`, b); })();
const old = `SELECT agentId, sum(inputTokens) AS inputTokens, sum(outputTokens) AS outputTokens, sum(costCents) AS costCents, sum(events) AS events
         FROM usage_rollup INDEXED BY usage_rollup_bucket WHERE bucket >= @from AND bucket < @to GROUP BY agentId`;
const neu = `SELECT "agentId", sum("inputTokens") AS "inputTokens", sum("outputTokens") AS "outputTokens", sum("costCents") AS "costCents", sum(events) AS events
   FROM usage_rollup INDEXED BY usage_rollup_bucket WHERE bucket >= ? AND bucket < ? GROUP BY "agentId"`;
const nohint = neu.replace(" INDEXED BY usage_rollup_bucket", "");
const from = now - 96, to = now + 1;
for (const [n, s] of [["old", old], ["new", neu], ["no hint", nohint]] as const) console.log(n, JSON.stringify(db.prepare("EXPLAIN QUERY PLAN " + s).all(...(n === "old" ? [{ from, to }] : [from, to])).map((r: any) => r.detail)));
const po = db.prepare(old);
const fake = { engine: "sqlite", sql: db } as any;
const N = 20000;
for (let round = 0; round < 3; round++) {
  let t = process.hrtime.bigint();
  for (let i = 0; i < N; i++) po.all({ from, to });
  const a = Number(process.hrtime.bigint() - t) / N / 1000;
  t = process.hrtime.bigint();
  for (let i = 0; i < N; i++) await atomically(fake, (tx) => tx.all(neu, [from, to]));
  const b = Number(process.hrtime.bigint() - t) / N / 1000;
  t = process.hrtime.bigint();
  const pn = db.prepare(nohint);
  for (let i = 0; i < 2000; i++) pn.all(from, to);
  const c = Number(process.hrtime.bigint() - t) / 2000 / 1000;
  console.log(`old prepared ${a.toFixed(1)} µs; atomically ${b.toFixed(1)} µs; without hint ${c.toFixed(1)} µs`);
}
