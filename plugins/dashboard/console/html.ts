// `html\`<p>${text}</p>\`` builds Preact elements from a template (htm): no build step, and
// every interpolated string is a text node, so agent-written text is never parsed as HTML.
import htm from "htm";
import { h, type VNode } from "preact";

export const html = htm.bind(h) as (strings: TemplateStringsArray, ...values: unknown[]) => VNode;
