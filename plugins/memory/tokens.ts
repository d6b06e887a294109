import { token } from "@muster/plugin";
import type { MemoryReader } from "./services/memory-reader.ts";

/** Workspace memory, documents and the parsed organisation file. Depend on the `memory` plugin to use it. */
export const MEMORY_READER = token<MemoryReader>("memory.reader");
