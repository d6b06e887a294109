// The host side of redaction (`hostTokens.redaction`): delegates to the backend a plugin
// provides under `hostTokens.redactionBackend`, looked up at each call so the order in
// which plugins register does not matter.
import type { TextRedactor } from "../plugin-api/redaction.ts";

export function createRedaction(backend: () => TextRedactor | undefined): TextRedactor {
  return {
    redact(text) {
      if (text.length === 0) return text;
      const impl = backend();
      return impl ? impl.redact(text) : text;
    },
  };
}
