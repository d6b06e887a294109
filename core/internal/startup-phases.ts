// Where start-up goes, phase by phase: recorded by the host, logged with "muster started"
// and read by `npm run bench:api`. The first phase, from the process's own start to the
// host's creation, is module loading (and type stripping) plus configuration.
import { performance } from "node:perf_hooks";

export interface StartupPhase {
  name: string;
  ms: number;
}

export interface StartupPhases {
  /** Closes the phase running since the previous mark (or since the process started). */
  mark(name: string): void;
  /** Runs `work` as one phase. */
  time<T>(name: string, work: () => Promise<T>): Promise<T>;
  /** The phases so far, in order, rounded to 0.1 ms. */
  list(): StartupPhase[];
}

export function createStartupPhases(firstPhase: string): StartupPhases {
  const phases: StartupPhase[] = [];
  // performance.now() counts from the process's time origin, so the first mark covers
  // everything Node did before the host existed.
  let last = 0;
  const mark = (name: string) => {
    const now = performance.now();
    phases.push({ name, ms: Math.round((now - last) * 10) / 10 });
    last = now;
  };
  mark(firstPhase);
  return {
    mark,
    async time(name, work) {
      last = performance.now();
      try {
        return await work();
      } finally {
        mark(name);
      }
    },
    list: () => phases.map((p) => ({ ...p })),
  };
}
