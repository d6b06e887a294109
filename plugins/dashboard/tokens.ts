import { extensionPoint, type ConsolePage, type ConsolePanel } from "@muster/plugin";

/** A panel or page a plugin adds to the console; the shapes are published by @muster/plugin so third-party packages get them typed. */
export type { ConsolePage, ConsolePanel };

/** Where plugins contribute panels to the console's home page (`contribute(CONSOLE_PANELS, {...})`). */
export const CONSOLE_PANELS = extensionPoint<ConsolePanel>("dashboard.panels");

/** Where plugins contribute whole pages of the console (`/console/<id>`, listed in the navigation). */
export const CONSOLE_PAGES = extensionPoint<ConsolePage>("dashboard.pages");
