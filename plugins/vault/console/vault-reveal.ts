// Revealing one secret's value: only after an explicit "Yes, reveal value", shown for a short
// time with a visible countdown and a "Hide now" button, and hidden as soon as the time runs
// out, the tab is hidden or the row goes away. The value is kept nowhere but this component's
// state; POST /api/vault/reveal (session) answers with Cache-Control: no-store.
import { html, muster, useEffect, useState, ActionButton } from "@muster/console";

export const DEFAULT_REVEAL_SECONDS = 30;

export function RevealValue({ name, seconds }: { name: string; seconds: number }) {
  const [value, setValue] = useState<string | null>(null);
  const [left, setLeft] = useState(0);
  const hide = () => {
    setValue(null);
    setLeft(0);
  };
  useEffect(() => {
    if (value === null) return;
    const tick = setInterval(() => setLeft((current) => current - 1), 1000);
    const onHidden = () => document.visibilityState === "hidden" && hide();
    document.addEventListener("visibilitychange", onHidden);
    return () => {
      clearInterval(tick);
      document.removeEventListener("visibilitychange", onHidden);
    };
  }, [value]);
  useEffect(() => {
    if (value !== null && left <= 0) hide();
  }, [left, value]);

  if (value === null) {
    const reveal = async () => {
      const answer = await muster.postVaultReveal({ body: { name } });
      setValue(answer.value);
      setLeft(seconds);
    };
    return html`<${ActionButton} label="Reveal value" ariaLabel=${`Reveal value of ${name}`} confirm=${`Show the value of ${name} on screen for ${seconds} seconds?`} onAction=${reveal} />`;
  }
  return html`<div class="revealed" role="group" aria-label=${`Value of ${name}`}>
    <code class="secret-value" data-secret=${name}>${value}</code>
    <span class="meta countdown" aria-live="off">Hidden in ${left} s</span>
    <button type="button" class="button plain" aria-label=${`Hide now the value of ${name}`} onClick=${hide}>Hide now</button>
  </div>`;
}
