// The time scale lives in the test kit (`@muster/plugin/testing`), shared with plugin authors.
export { TIME_SCALE, scaled, loadTimeScale } from "@muster/plugin/testing";
