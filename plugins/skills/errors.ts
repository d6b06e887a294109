import { defineErrors } from "@muster/plugin";

/** Error catalogue of the skills plugin. */
export const skillsErrors = defineErrors({
  SKILLS_URL_INVALID: { status: 400, message: (p) => `The skill URL is not allowed: ${p.reason}` },
  SKILLS_URL_BLOCKED: { status: 403, message: (p) => `The skill URL resolves to an address that may not be fetched (${p.address}): loopback, private, link-local and similar ranges are refused` },
  SKILLS_FETCH_FAILED: { status: 502, message: (p) => `Fetching the skill URL failed: ${p.reason}` },
  SKILLS_FETCH_TIMEOUT: { status: 504, message: (p) => `Fetching the skill URL took longer than ${p.timeoutMs} ms` },
  SKILLS_CONTENT_TOO_LARGE: { status: 413, message: (p) => `The skill is larger than ${p.maxBytes} bytes` },
  SKILLS_CONTENT_NOT_TEXT: { status: 422, message: (p) => `The skill is not text: ${p.reason}` },
  SKILLS_SKILL_EXISTS: { status: 409, message: (p) => `The skill ${p.path} already exists; send "overwrite": true to replace it` },
});
