// Opens the page the URL names: imports its module (contributed by a plugin, listed in
// GET /dashboard/pages) and mounts it into the main region; unmounts it when the place moves to
// another page. A page that fails to load shows why in its own place, the rest of the console
// goes on.
import { useEffect, useRef, useState } from "preact/hooks";
import { html } from "./html.ts";
import * as kit from "./kit.ts";
import { ErrorNote, PageHeader } from "./ui/basics.ts";
import type { ListedPage } from "./pages.ts";

type Mount = (element: HTMLElement, consoleKit: typeof kit) => kit.MountedModule | (() => void) | void;

export function PageHost({ page }: { page: ListedPage }) {
  const element = useRef<HTMLDivElement>(null);
  const [failure, setFailure] = useState<unknown>(undefined);
  useEffect(() => {
    let unmount: (() => void) | undefined;
    let gone = false;
    setFailure(undefined);
    import(page.module)
      .then((module: { default: Mount }) => {
        if (gone || !element.current) return;
        const mounted = module.default(element.current, kit);
        unmount = typeof mounted === "function" ? mounted : mounted?.unmount;
      })
      .catch((error: unknown) => !gone && setFailure(error));
    return () => {
      gone = true;
      unmount?.();
    };
  }, [page.module]);
  return html`<div class="page" data-page=${page.id}>
    ${failure ? html`<${PageHeader} title=${page.title} /><${ErrorNote} error=${failure} prefix="This page could not be loaded." />` : null}
    <div ref=${element}></div>
  </div>`;
}
