// Where start-up goes, phase by phase: recorded by the host, logged with "muster started"
// and read by `npm run bench:api`. The first phase, from the process's own start to the
// host's creation, is module loading (and type stripping) plus configuration.

export interface StartupPhase {
  name: string;
  ms: number;
  /**
   * The main thread's CPU time in the phase (ms): unlike `ms`, it does not grow when other
   * processes hold the CPU, so a loaded machine can still compare two starts by it.
   */
  cpuMs: number;
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
  // everything Node did before the host existed. The global, not node:perf_hooks' export
  // (the same object): importing that module would load it with the start.
  let last = 0;
  let lastCpu = 0;
  const threadCpuMs = () => {
    const { user, system } = process.threadCpuUsage();
    return (user + system) / 1000;
  };
  const mark = (name: string) => {
    const now = performance.now();
    const cpu = threadCpuMs();
    phases.push({ name, ms: Math.round((now - last) * 10) / 10, cpuMs: Math.round((cpu - lastCpu) * 10) / 10 });
    last = now;
    lastCpu = cpu;
  };
  mark(firstPhase);
  return {
    mark,
    async time(name, work) {
      last = performance.now();
      lastCpu = threadCpuMs();
      try {
        return await work();
      } finally {
        mark(name);
      }
    },
    list: () => phases.map((p) => ({ ...p })),
  };
}
