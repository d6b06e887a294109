// Command output goes to JSON clients, the dashboard and logs: terminal control sequences
// (colours, cursor moves, OSC 52 clipboard writes, title changes) and bare control
// characters are removed so that output cannot drive a viewer's terminal or hide text.

const ESCAPES = [
  /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?/g, // OSC: ESC ] ... BEL or ESC \ (clipboard, titles, hyperlinks)
  /\x1b[PX^_][^\x1b]*(?:\x1b\\)?/g, // DCS, SOS, PM, APC strings
  /\x1b\[[0-?]*[ -/]*[@-~]/g, // CSI: colours, cursor moves, erasing
  /\x1b[ -/]*[0-~]?/g, // any other escape
  /[\u0080-\u009f]/g, // C1 controls, which some terminals act on like ESC sequences
];

/** `text` without terminal escape sequences and control characters; `\r` overwrites become line breaks. */
export function sanitizeOutput(text: string): string {
  let clean = text;
  for (const pattern of ESCAPES) clean = clean.replace(pattern, "");
  return clean.replace(/\r\n?/g, "\n").replace(/[\x00-\x08\x0b-\x1f\x7f]/g, "");
}
