import { z } from "zod";

/** Reusable zod pieces so every plugin validates the same things the same way. */
export const schemas = {
  /**
   * A record identifier in a path, query or body: 1-128 characters of letters, digits,
   * `_ - . :`, and never `.`/`..`. Refuses path tricks (`../`, `%2e%2e`, slashes, NUL).
   */
  id: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[A-Za-z0-9_.:-]+$/, "must contain only letters, digits and _ - . :")
    .refine((v) => v !== "." && v !== "..", "must not be a relative path segment"),
  /** ISO 8601 date-time with a time zone, normalised to `…Z` with milliseconds. */
  timestamp: z.iso.datetime({ offset: true }).transform((v) => new Date(v).toISOString()),
  /** A calendar date `YYYY-MM-DD` that exists. */
  date: z.iso.date(),
  /** `limit` query parameter: integer between 1 and `max`, default `dflt`. */
  limit: (dflt: number, max: number) => z.coerce.number().int().min(1).max(max).default(dflt),
};
