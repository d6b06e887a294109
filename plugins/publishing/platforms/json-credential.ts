import type { z } from "@muster/plugin";
import type { SecretSource } from "./platform.ts";

/** A credential stored as JSON (reference facts §5.8), read and validated; null when absent or malformed (the platform is then not configured). */
export function readJsonCredential<T>(secrets: SecretSource, name: string, schema: z.ZodType<T>): T | null {
  const raw = secrets(name);
  if (!raw) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
