// The one zod-issue formatter: HTTP validation, configuration files, plugin config and
// plugin-side checks all describe a refused value the same way.
import type { z } from "zod";
import { hostErrors, type ErrorDetail, type MusterError } from "./errors.ts";

/**
 * Each zod issue as an {@link ErrorDetail}: the dotted path (or `root` for the value
 * itself) and the reason; unknown keys are named one detail per issue.
 */
export function zodIssueDetails(error: z.ZodError, where?: ErrorDetail["in"], root: string = where ?? "body"): ErrorDetail[] {
  const located = where === undefined ? {} : { in: where };
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    if (issue.code === "unrecognized_keys") {
      return { path: [path, ...issue.keys].filter(Boolean).join(".") || root, reason: `unknown or read-only field(s): ${issue.keys.join(", ")}`, ...located };
    }
    return { path: path || root, reason: issue.message, ...located };
  });
}

/** `path: reason; path: reason`, the first `max` details (all by default). */
export function summarizeDetails(details: ErrorDetail[], max = Infinity): string {
  return details.slice(0, max).map((d) => `${d.path}: ${d.reason}`).join("; ");
}

/**
 * 400 VALIDATION_FAILED: the message names the first three problems of `subject`
 * (`request body`, `gate options`), `details` lists all of them.
 *
 * @example
 * const parsed = schema.safeParse(options);
 * if (!parsed.success) throw validationFailed("gate options", zodIssueDetails(parsed.error, undefined, "options"));
 */
export function validationFailed(subject: string, details: ErrorDetail[]): MusterError {
  return hostErrors.VALIDATION_FAILED({ subject, summary: summarizeDetails(details, 3) }, { details });
}
