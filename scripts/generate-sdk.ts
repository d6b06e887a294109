// `npm run sdk:generate`: regenerates the SDK's route table and error codes from the server
// (sdk/src/rest/generated/). Run it after adding or changing a route; a test fails until you do.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, relative } from "node:path";
import { ROOT } from "./error-catalogue.ts";
import { renderSdkFiles } from "./sdk/sdk-files.ts";

for (const [file, content] of await renderSdkFiles()) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
  console.log(`${relative(ROOT, file)}: written`);
}
