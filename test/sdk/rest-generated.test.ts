// The SDK's route table is generated from the server; this fails when a route was added or
// changed without `npm run sdk:generate`, so no route can land without a client method.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { renderSdkFiles } from "../../scripts/sdk/sdk-files.ts";
import { ROOT } from "../../scripts/error-catalogue.ts";
import { methodName } from "../../scripts/sdk/render-rest-client.ts";

test("sdk/src/rest/generated/ matches the server's routes and error codes (run `npm run sdk:generate`)", async () => {
  for (const [file, expected] of await renderSdkFiles()) {
    let actual = "";
    try {
      actual = readFileSync(file, "utf8");
    } catch {
      /* missing: reported below */
    }
    assert.ok(actual === expected, `${relative(ROOT, file)} is out of date: run \`npm run sdk:generate\``);
  }
});

test("method names follow the route: verb, literal segments, then By<params>", () => {
  assert.is(methodName("GET", "/api/tasks"), "getTasks");
  assert.is(methodName("PATCH", "/api/approvals/{id}"), "patchApprovalsById");
  assert.is(methodName("POST", "/api/tasks/{id}/claim"), "postTasksClaimById");
  assert.is(methodName("GET", "/api/org-structure"), "getOrgStructure");
  assert.is(methodName("GET", "/api/openapi.json"), "getOpenapiJson");
  assert.is(methodName("GET", "/login"), "getLogin");
});

test.run();
