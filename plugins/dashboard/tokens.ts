import { extensionPoint, type ConsolePanel } from "@muster/plugin";

/** A panel a plugin adds to the console; the shape is published by @muster/plugin so third-party packages get it typed. */
export type { ConsolePanel };

/** Where plugins contribute console panels (`contribute(CONSOLE_PANELS, {...})`). */
export const CONSOLE_PANELS = extensionPoint<ConsolePanel>("dashboard.panels");
