// The SDK's generated files, rendered from a running host's /api/openapi.json and the error
// catalogues. Shared by `npm run sdk:generate` (writes them) and the test that checks them.
import { join } from "node:path";
import { collectErrors, ROOT } from "../error-catalogue.ts";
import { startTestHost } from "../../test/helpers/start-test-host.ts";
import { renderRestClient, type OpenApiDocument } from "./render-rest-client.ts";
import { renderErrorCodes } from "./render-error-codes.ts";

export const GENERATED_DIR = join(ROOT, "sdk", "src", "rest", "generated");

/** File path → content, for every generated SDK file. Boots (and stops) a host with the built-in plugins. */
export async function renderSdkFiles(): Promise<Map<string, string>> {
  const host = await startTestHost();
  try {
    const { status, body } = await host.json<OpenApiDocument>("/api/openapi.json");
    if (status !== 200) throw new Error(`GET /api/openapi.json answered ${status}`);
    return new Map([
      [join(GENERATED_DIR, "operations.ts"), renderRestClient(body)],
      [join(GENERATED_DIR, "error-codes.ts"), renderErrorCodes(await collectErrors())],
    ]);
  } finally {
    await host.stop();
  }
}
