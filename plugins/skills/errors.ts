import { defineErrors } from "@muster/plugin";

/** Error catalogue of the skills plugin. */
export const skillsErrors = defineErrors("skills", {
  SKILLS_URL_INVALID: { status: 400, message: "The skill URL is not allowed: {reason}" },
  SKILLS_URL_BLOCKED: { status: 403, message: "The skill URL resolves to an address that may not be fetched ({address}): loopback, private, link-local and similar ranges are refused" },
  SKILLS_FETCH_FAILED: { status: 502, message: "Fetching the skill URL failed: {reason}" },
  SKILLS_FETCH_TIMEOUT: { status: 504, message: "Fetching the skill URL took longer than {timeoutMs} ms" },
  SKILLS_CONTENT_TOO_LARGE: { status: 413, message: "The skill is larger than {maxBytes} bytes" },
  SKILLS_CONTENT_NOT_TEXT: { status: 422, message: "The skill is not text: {reason}" },
  SKILLS_SKILL_EXISTS: { status: 409, message: "The skill {path} already exists; send \"overwrite\": true to replace it" },
});
