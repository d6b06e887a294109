import { token } from "@muster/plugin";
import type { DispatchRow } from "./entities/dispatch.ts";

/** A dispatch as the API returns it: the instance running it (`owner`) is the store's own business. */
export type DispatchRecord = Omit<DispatchRow, "owner">;

/** Sending tasks to their assignees through the gateway (DESIGN §14.6). */
export interface Dispatcher {
  /**
   * Claims the task (409 when already being dispatched), moves it to `in_progress` and sends
   * it to its assignee; resolves once sent, the reply is handled in the background.
   */
  dispatch(taskId: string): Promise<DispatchRecord>;
  list(limit: number): Promise<DispatchRecord[]>;
  get(id: string): Promise<DispatchRecord>;
}

/** The dispatcher. Depend on the `dispatch` plugin to use it. */
export const DISPATCH = token<Dispatcher>("dispatch.service");
