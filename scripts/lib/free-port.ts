import { createServer } from "node:net";

/** A port that was free a moment ago on 127.0.0.1: `preferred` if it was, else any. */
export function freePort(preferred = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    // The preferred port when it is free, else any free one.
    server.once("error", (error: NodeJS.ErrnoException) => (preferred && error.code === "EADDRINUSE" ? freePort().then(resolve, reject) : reject(error)));
    server.listen(preferred, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
