// The host side of redaction (`hostTokens.redaction`): delegates to the backend a plugin
// provides under `hostTokens.redactionBackend`, looked up at a call until it is found (so the
// order in which plugins register does not matter), then kept: a service is never taken back,
// and the lookup through the container showed on every create's profile.
import type { TextRedactor } from "../plugin-api/redaction.ts";

export function createRedaction(backend: () => TextRedactor | undefined): TextRedactor {
  let found: TextRedactor | undefined;
  return {
    redact(text) {
      if (text.length === 0) return text;
      const impl = (found ??= backend());
      return impl ? impl.redact(text) : text;
    },
  };
}
