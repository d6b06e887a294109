// The `muster packs` command line: installs a pack through the running server. A pack tied to a marketplace
// template needs a licence proof: the command asks the server for a challenge and signs it (EIP-712) with the
// key in MUSTER_WALLET_KEY, never taken as an argument (it would land in the shell history and `ps`).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { CommandIo } from "@muster/plugin";

export const PACKS_USAGE = `Usage: muster packs install <name> [--holder <address>]

Installs packs/<name>.json through the running server of MUSTER_HOME (or MUSTER_URL).
A pack tied to a marketplace template needs proof that you control the address holding its licence:
  MUSTER_WALLET_KEY   the holder's private key (0x + 64 hex), which signs the server's challenge
  --holder <address>  the licence is held by a contract wallet (ERC-1271) that this key owns
Exit codes: 0 installed, 1 refused (the server's code is printed), 2 usage error.`;

/** The running server: MUSTER_URL, else the url in MUSTER_HOME's instance lock. */
function serverUrl(io: Pick<CommandIo, "home" | "env">): string | null {
  if (io.env.MUSTER_URL) return io.env.MUSTER_URL;
  try {
    const lock = JSON.parse(readFileSync(join(io.home, "muster.lock"), "utf8")) as { url?: string };
    return lock.url ? lock.url.replace("//0.0.0.0:", "//127.0.0.1:").replace("//[::]:", "//[::1]:") : null;
  } catch {
    return null;
  }
}

/** Runs `muster packs <args>`; returns the exit code. */
export async function runPacksCommand(args: string[], io: Pick<CommandIo, "home" | "env" | "stdout" | "stderr">): Promise<number> {
  const [sub, name, ...rest] = args;
  const holderAt = rest.indexOf("--holder");
  const holder = holderAt === -1 ? undefined : rest[holderAt + 1];
  if (sub !== "install" || !name || rest.length !== (holderAt === -1 ? 0 : 2) || (holderAt !== -1 && !/^0x[0-9a-fA-F]{40}$/.test(holder ?? ""))) {
    io.stderr.write(`${PACKS_USAGE}\n`);
    return 2;
  }
  const url = serverUrl(io);
  if (!url) {
    io.stderr.write("muster packs install: no running server for this MUSTER_HOME; start it or set MUSTER_URL\n");
    return 1;
  }
  const { createMusterClient, installLicensedPack, isMusterApiError } = await import("@muster/sdk");
  const muster = createMusterClient({ url });
  try {
    const pack = (await muster.getPacks()).packs.find((p) => p.name === name);
    let installed;
    if (pack?.templateId != null) {
      const key = io.env.MUSTER_WALLET_KEY;
      if (!key || !/^0x[0-9a-fA-F]{64}$/.test(key)) {
        io.stderr.write(`muster packs install: pack ${name} is tied to marketplace template ${pack.templateId}; set MUSTER_WALLET_KEY to the licence holder's key (0x + 64 hex) to sign the proof\n`);
        return 1;
      }
      const [{ createWalletClient, custom }, { privateKeyToAccount }] = await Promise.all([import("viem"), import("viem/accounts")]);
      // Signing with a local key needs no chain: the transport is never asked.
      const wallet = createWalletClient({ account: privateKeyToAccount(key as `0x${string}`), transport: custom({ request: async () => { throw new Error("no chain: signing is local"); } }) });
      installed = await installLicensedPack(muster, { name, wallet, ...(holder ? { holder: holder as `0x${string}` } : {}) });
    } else {
      installed = await muster.postPacks({ body: { name } });
    }
    io.stdout.write(`Installed ${installed.pack.name} ${installed.pack.version}: ${installed.orgEntries.join(", ")}. Approval ${String(installed.approval.id)} registers them with the gateway.\n`);
    return 0;
  } catch (error) {
    if (isMusterApiError(error)) {
      io.stderr.write(`muster packs install: ${error.code}: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
