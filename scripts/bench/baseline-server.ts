// The baseline of `npm run bench:api` as a server of its own (baseline-listener.ts has what
// it does for each request):
//   PORT=<port> BASELINE_DB=<file> node --import tsx scripts/bench/baseline-server.ts
import { createServer } from "node:http";
import Database from "better-sqlite3";
import { baselineListener, prepareBaselineDatabase } from "./baseline-listener.ts";

const port = Number(process.env.PORT ?? 0);
const dbPath = process.env.BASELINE_DB;
if (!dbPath) throw new Error("BASELINE_DB must name the database file");

const db = new Database(dbPath);
prepareBaselineDatabase(db);
const server = createServer(baselineListener(db));
server.keepAliveTimeout = 5_000;
server.listen(port, "127.0.0.1");

const stop = () => server.close(() => {
  db.close();
  process.exit(0);
});
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
