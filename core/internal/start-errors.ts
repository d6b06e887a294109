// Why `muster start` could not start, in one line the command line prints as is (no
// stack trace): another server holds this MUSTER_HOME, or the port is taken.
export type StartErrorCode = "INSTANCE_RUNNING" | "PORT_IN_USE";

export class StartError extends Error {
  readonly code: StartErrorCode;
  constructor(code: StartErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = "StartError";
  }
}

/** The listen error as a StartError when it is one a user can fix by choosing another port. */
export function listenError(error: unknown, port: number, host: string): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EADDRINUSE") {
    return new StartError("PORT_IN_USE", `Port ${port} is in use on ${host} (PORT=${port}); set PORT to another port`, { cause: error });
  }
  return error;
}
