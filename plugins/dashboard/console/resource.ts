// Hook: data loaded from the API, loaded again when a live event it follows arrives (a burst
// loads once), after a stream reconnect, and when `reload()` is called. An answer that arrives
// after a newer request started is dropped, so a slow old answer never replaces a new one.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { useLive } from "./live.ts";

export interface Resource<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => Promise<void>;
}

export interface ResourceOptions {
  /** Live-stream event names or patterns (`work.*`, `file_change`) that make it load again. */
  events?: readonly string[];
  /** Values whose change makes it load again (like an effect's dependencies). */
  deps?: readonly unknown[];
  /** Debounce for event bursts (ms, default 250). */
  settleMs?: number;
}

export function useResource<T>(load: () => Promise<T>, { events = [], deps = [], settleMs = 250 }: ResourceOptions = {}): Resource<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({ data: undefined, error: undefined, loading: true });
  const latestLoad = useRef(load);
  latestLoad.current = load;
  const generation = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const reload = useCallback(async () => {
    const mine = ++generation.current;
    setState((previous) => ({ ...previous, loading: true }));
    try {
      const data = await latestLoad.current();
      if (mine === generation.current) setState({ data, error: undefined, loading: false });
    } catch (error) {
      if (mine === generation.current) setState((previous) => ({ data: previous.data, error, loading: false }));
    }
  }, []);

  useEffect(() => {
    void reload();
    return () => void generation.current++;
  }, deps);
  useEffect(() => () => clearTimeout(timer.current), []);

  useLive(events.length ? [...events] : [], () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void reload(), settleMs);
  });
  return { ...state, reload };
}
