import type { SkillsConfig } from "../config.ts";
import { skillsErrors } from "../errors.ts";
import { createAddressPolicy, type AddressPolicy } from "@muster/plugin";
import { safeFetch } from "./safe-fetch.ts";
import { slugify, type StoredSkill } from "./skill-store.ts";
import type { SkillFiles, SkillImports } from "../tokens.ts";
import { decodeFetched, skillMarkdown } from "./skill-text.ts";

export interface SkillImport {
  name: string;
  category: string;
  content?: string | null;
  url?: string | null;
  overwrite?: boolean;
}

/** Imports a skill from raw content or from an http(s) URL fetched under the SSRF guard. */
export class SkillImporter implements SkillImports {
  private readonly policy: AddressPolicy;

  private readonly deps: { store: SkillFiles; config: SkillsConfig };
  constructor(deps: { store: SkillFiles; config: SkillsConfig }) {
    this.deps = deps;
    this.policy = createAddressPolicy(deps.config.blockedAddressRanges);
  }

  async import(input: SkillImport): Promise<StoredSkill> {
    const { config, store } = this.deps;
    const slug = slugify(input.name);
    let text: string;
    let source: string;
    if (input.url) {
      const fetched = await safeFetch(input.url, {
        policy: this.policy,
        timeoutMs: config.fetchTimeoutMs,
        maxBytes: config.maxBytes,
        maxRedirects: config.maxRedirects,
      });
      text = decodeFetched(fetched.body, fetched.contentType);
      source = fetched.url;
    } else {
      text = input.content ?? "";
      source = "raw content";
    }
    if (text.trim().length === 0) throw skillsErrors.SKILLS_CONTENT_NOT_TEXT({ reason: "it is empty" });
    const markdown = skillMarkdown(input.name, text, source, new Date());
    if (Buffer.byteLength(markdown) > config.maxBytes) throw skillsErrors.SKILLS_CONTENT_TOO_LARGE({ maxBytes: config.maxBytes });
    return store.write({ slug, category: input.category, markdown, overwrite: input.overwrite ?? false });
  }
}
