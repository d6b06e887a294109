// The browser's injected wallet (EIP-1193 `window.ethereum`), used only when one is present:
// its accounts, sending the purchase transaction the server prepared, waiting for it to be
// mined, and signing a pack licence challenge (EIP-712). Nothing here holds a key.

export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

export function injectedWallet(): Eip1193Provider | undefined {
  const candidate = (window as unknown as { ethereum?: Eip1193Provider }).ethereum;
  return candidate && typeof candidate.request === "function" ? candidate : undefined;
}

/** The message of a wallet's refusal (EIP-1193 errors carry `code` and `message`; 4001 is "the user rejected"). */
export function walletErrorText(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: number; message?: string };
  if (code === 4001) return "The wallet's owner rejected the request.";
  return `Wallet: ${message ?? String(error)}${code !== undefined ? ` (${code})` : ""}`;
}

export async function connectAccounts(wallet: Eip1193Provider): Promise<string[]> {
  return (await wallet.request({ method: "eth_requestAccounts" })) as string[];
}

export async function walletChainId(wallet: Eip1193Provider): Promise<number> {
  return Number.parseInt(String(await wallet.request({ method: "eth_chainId" })), 16);
}

/** The purchase transaction as `GET /api/marketplace/templates` prepared it, sent from `from`; resolves to its hash. */
export async function sendPurchase(wallet: Eip1193Provider, from: string, purchase: { to: string; data: string; value: string }): Promise<string> {
  return (await wallet.request({ method: "eth_sendTransaction", params: [{ from, to: purchase.to, data: purchase.data, value: purchase.value }] })) as string;
}

/** Asks the wallet for the receipt until the transaction is mined (bounded: a stuck one is reported, not waited on forever). */
export async function waitForReceipt(wallet: Eip1193Provider, hash: string, { attempts = 120, everyMs = 1_000 } = {}): Promise<{ status: string }> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const receipt = (await wallet.request({ method: "eth_getTransactionReceipt", params: [hash] })) as { status: string } | null;
    if (receipt) return receipt;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  throw new Error(`Transaction ${hash} was not mined yet; its result will show here once it is (reload the page).`);
}

/** The domain type of the licence challenge's typed data (name, version, verifyingContract, salt: EIP-712's order). */
const DOMAIN_TYPE = [
  { name: "name", type: "string" },
  { name: "version", type: "string" },
  { name: "verifyingContract", type: "address" },
  { name: "salt", type: "bytes32" },
];

/** Signs the server's licence challenge with `eth_signTypedData_v4` (wallets want the domain's type spelled out). */
export async function signTypedData(wallet: Eip1193Provider, account: string, typedData: { types: Record<string, unknown> }): Promise<string> {
  const full = { ...typedData, types: { EIP712Domain: DOMAIN_TYPE, ...typedData.types } };
  return (await wallet.request({ method: "eth_signTypedData_v4", params: [account, JSON.stringify(full)] })) as string;
}

/** Wei (a decimal string) as ether, without floating point: "10000000000000000" → "0.01". */
export function formatEther(wei: string): string {
  const value = BigInt(wei);
  const whole = value / 10n ** 18n;
  const fraction = (value % 10n ** 18n).toString().padStart(18, "0").replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole.toString();
}
