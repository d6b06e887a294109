import { z } from "@muster/plugin";

/** Largest secret value, in UTF-8 bytes. */
export const MAX_VALUE_BYTES = 64 * 1024;

export const secretName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/, "must match ^[A-Za-z_][A-Za-z0-9_.-]{0,127}$ (letters, digits, _ . -; at most 128 characters)");

const secretValue = z
  .string()
  .min(1, "must not be empty")
  .refine((v) => Buffer.byteLength(v, "utf8") <= MAX_VALUE_BYTES, `must be at most ${MAX_VALUE_BYTES} bytes (64 KiB) in UTF-8`);

const envVar = z.string().max(128).regex(/^[A-Z_][A-Z0-9_]*$/, "must match ^[A-Z_][A-Z0-9_]*$ (upper-case letters, digits, _)");

export const secretSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  category: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  lastAccessedAt: z.string().nullable(),
});

export const listResponse = z.object({ ok: z.literal(true), secrets: z.array(secretSchema) });
export const secretResponse = z.object({ ok: z.literal(true), secret: secretSchema });

export const saveBody = z.strictObject({
  name: secretName,
  value: secretValue,
  description: z.string().max(1000).nullable().optional(),
  category: z.string().min(1).max(64).regex(/^[A-Za-z0-9_.:-]+$/, "must contain only letters, digits and _ . : -").optional(),
  createdBy: z.string().min(1).max(128).regex(/^[A-Za-z0-9_.:@-]+$/, "must be an agent or user id").optional(),
});

export const deleteQuery = z.strictObject({ name: secretName });
export const revealBody = z.strictObject({ name: secretName });
export const revealResponse = z.object({ ok: z.literal(true), name: z.string(), value: z.string() });
export const injectBody = z.strictObject({ name: secretName, envVar });
export const injectResponse = z.object({ ok: z.literal(true), name: z.string(), envVar: z.string() });
