// The console's entry: take the session secret from the login link, open the live stream,
// handle in-console links, and draw the frame.
import { render } from "preact";
import { html } from "./html.ts";
import { App } from "./app.ts";
import { connectLive } from "./live.ts";
import { installLinkHandling } from "./router.ts";
import { captureCsrf } from "./session.ts";

captureCsrf();
installLinkHandling();
connectLive();
const root = document.getElementById("console")!;
root.replaceChildren();
render(html`<${App} />`, root);
