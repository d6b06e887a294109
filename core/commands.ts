// Extra `muster` sub-commands contributed by features (for example `muster vault rotate`).
// Each entry is small: parse arguments, call the feature's own module, return an exit code.

export interface CliCommand {
  name: string;
  usage: string;
  summary: string;
  run(args: string[]): Promise<number>;
}

export const extraCommands: CliCommand[] = [];
