import { z } from "@muster/plugin";

const id = z.string().regex(/^[a-z][a-z0-9_-]{0,62}$/, "must match ^[a-z][a-z0-9_-]{0,62}$");

/** A pack file `packs/<file>.json` (reference §6.3, plus persona templates, directories and a marketplace template). */
export const packManifest = z.object({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/, "must be 1-100 letters, digits, _ . -"),
  version: z.string().regex(/^\d+\.\d+\.\d+$/, "must be major.minor.patch"),
  description: z.string().max(2_000).default(""),
  author: z.string().max(200).optional(),
  squad: z
    .object({ id, name: z.string().min(1).max(200), domain: z.string().max(200).nullable().optional(), chief: id.nullable().optional() })
    .optional(),
  agents: z
    .array(
      z.object({
        id,
        name: z.string().min(1).max(200),
        emoji: z.string().max(16).nullable().optional(),
        role: z.string().min(1).max(200),
        model: z.string().min(1).max(200),
        tier: z.number().int().min(0).max(9),
        reportsTo: id.nullable().optional(),
        skills: z.array(z.string().min(1).max(100)).max(100).default([]),
        description: z.string().max(2_000).optional(),
        /** A persona template (`<tier>/<id>` or `<id>`) under `personas/`. */
        persona: z.string().min(1).max(200).optional(),
        /** The agent's workspace directory (default `agents/<id>`), relative to the workspace. */
        workspace: z.string().min(1).max(500).optional(),
      }),
    )
    .min(1)
    .max(100),
  /** Extra workspace directories the pack creates, relative to the workspace. */
  directories: z.array(z.string().min(1).max(500)).max(100).default([]),
  /** A marketplace template id: only a licence holder may install the pack. */
  templateId: z.union([z.number().int().min(1).max(2 ** 48 - 1), z.string().regex(/^[1-9]\d{0,14}$/)]).optional(),
});

export type PackManifest = z.output<typeof packManifest>;

/** The spec's Squad pack, as GET /api/packs lists it. */
export interface PackSummary {
  name: string;
  version: string;
  description: string;
  agents: number;
  file: string;
  installed: boolean;
  templateId: string | null;
}
