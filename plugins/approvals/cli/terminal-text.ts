// Text an agent wrote (titles, payloads, reasons) is printed to the human's terminal: an
// escape sequence in it could recolour, rewrite or hide lines (or set the clipboard through
// OSC 52), so control characters are shown as visible escapes instead of being sent.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every control or bidirectional-override character shown as `\u{…}`. */
export function printable(text: string): string {
  return text.replace(CONTROL, (ch) => `\\u{${ch.codePointAt(0)!.toString(16)}}`);
}
