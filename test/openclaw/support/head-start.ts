// What a file needs of its own before its tests can run (a second gateway, `gateway:try`'s
// child) is slow to start: 15 s to 2 min per gateway. A file declares it when it is loaded;
// the runner (test/openclaw/run.ts), once the suite's gateway is ready, starts these in the
// background one at a time in file order, so each start overlaps the files before its own
// instead of adding to the run. The file takes its thing in its `before` hook (started on the
// spot when the runner has not got to it) and stops it in its `after` hook; the runner stops
// every one of them again at the end (a stop is safe twice), so nothing outlives the run even
// when a hook threw. One at a time: two gateway starts at once on two cores each take longer.
export interface HeadStart<T> {
  /** The started thing; starts it now when the runner has not started it yet. */
  take(): Promise<T>;
}

interface Entry {
  label: string;
  begin(): Promise<unknown>;
  stopIfStarted(): Promise<void>;
}

const entries: Entry[] = [];

export function headStart<T>(label: string, start: () => Promise<T>, stop: (value: T) => Promise<void>): HeadStart<T> {
  let started: Promise<T> | undefined;
  const begin = () => (started ??= start());
  entries.push({
    label,
    begin,
    async stopIfStarted() {
      const value = await started?.catch(() => undefined);
      if (value !== undefined) await stop(value);
    },
  });
  return { take: begin };
}

/** The runner: starts every declared thing in the background, one after the other. */
export function startHeadStarts(log: (line: string) => void): void {
  void (async () => {
    for (const entry of entries) {
      const t0 = performance.now();
      await entry.begin().then(
        () => log(`head start: ${entry.label} ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`),
        // The file that takes it fails with the error; the next one still starts.
        (error: Error) => log(`head start: ${entry.label} failed: ${error.message.split("\n")[0]}`),
      );
    }
  })();
}

/** The runner's teardown: stops whatever was started and is still running. */
export async function stopHeadStarts(): Promise<void> {
  await Promise.all(entries.map((entry) => entry.stopIfStarted()));
}
