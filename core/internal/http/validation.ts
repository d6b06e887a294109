import type { z } from "zod";
import { MusterError, type ErrorDetail } from "../../plugin-api/errors.ts";

/** Turns zod issues into the `details` list of a `VALIDATION_FAILED` error. */
export function issuesToDetails(error: z.ZodError, where: ErrorDetail["in"]): ErrorDetail[] {
  return error.issues.map((issue) => {
    let reason = issue.message;
    const path = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      reason = `unknown or read-only field(s): ${issue.keys.join(", ")}`;
      return { path: [path, ...issue.keys].filter(Boolean).join(".") || (where ?? "body"), reason, in: where };
    }
    return { path: path || (where ?? "body"), reason, in: where };
  });
}

/** Parses `value` with `schema`, throwing 400 `VALIDATION_FAILED` with per-field details. */
export function validate<S extends z.ZodType>(schema: S, value: unknown, where: ErrorDetail["in"]): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = issuesToDetails(result.error, where);
  const summary = details.slice(0, 3).map((d) => `${d.path}: ${d.reason}`).join("; ");
  throw new MusterError("VALIDATION_FAILED", 400, `Invalid request ${where ?? "body"}: ${summary}`, { details });
}
