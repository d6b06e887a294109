import type { z } from "zod";
import type { ErrorDetail } from "../../plugin-api/errors.ts";
import { validationFailed, zodIssueDetails } from "../../plugin-api/zod-issues.ts";

/** Parses `value` with `schema`, throwing 400 `VALIDATION_FAILED` with per-field details. */
export function validate<S extends z.ZodType>(schema: S, value: unknown, where: ErrorDetail["in"]): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw validationFailed(`request ${where ?? "body"}`, zodIssueDetails(result.error, where));
}
