// The waits live in the test kit (`@muster/plugin/testing`), shared with plugin authors.
export { waitUntil, sleep, eventRecorder, type WaitOptions, type EventRecorder } from "@muster/plugin/testing";
