// The waits live in the test kit (`@muster/plugin/testing`), shared with plugin authors.
import { waitUntil, type WaitOptions } from "@muster/plugin/testing";
export { waitUntil, sleep, eventRecorder, type WaitOptions, type EventRecorder } from "@muster/plugin/testing";

/**
 * Waits until `read` answers truthy twice in a row, and returns the second answer: for a view
 * each instance of a team keeps (the gateway's state, agent health), read through the test
 * host. Under MUSTER_TEST_TEAM=1 the host's requests alternate between the two instances, so
 * two answers in a row are one from each; on one process it is the same view twice.
 */
export function untilEveryInstance<T>(read: () => Promise<T>, options: WaitOptions = {}): Promise<NonNullable<T>> {
  return waitUntil(async () => ((await read()) ? read() : null), options) as Promise<NonNullable<T>>;
}
