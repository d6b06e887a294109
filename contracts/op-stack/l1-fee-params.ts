// The L1 fee parameters of Hardhat's OP-stack simulation. Its L1Block predeploy reports an L1 base fee and a
// blob base fee of 10 gwei but fee scalars of 0, so every L1 data fee it computes is 0. These helpers write the
// scalars (OP Mainnet's Ecotone values, which the simulation seeds but does not pack where L1Block reads them),
// so receipts' `l1Fee` and viem's `estimateL1Fee` report what a buyer would pay with those parameters.
import { concat, pad, toHex, type Hex } from "viem";

/** The L1Block predeploy (the L1 values the GasPriceOracle reads). */
export const L1_BLOCK = "0x4200000000000000000000000000000000000015";
/** The GasPriceOracle predeploy (`getL1Fee`, what viem's `estimateL1Fee` calls). */
export const GAS_PRICE_ORACLE = "0x420000000000000000000000000000000000000F";

/** The simulated L1 prices and the scalars written; docs/benchmarks.md quotes them next to each fee. */
export const SIMULATED_L1_FEE_PARAMS = {
  l1BaseFeeWei: 10_000_000_000n,
  l1BlobBaseFeeWei: 10_000_000_000n,
  baseFeeScalar: 5227,
  blobBaseFeeScalar: 1_014_213,
} as const;

/** L1Block slot 3, high to low: baseFeeScalar (uint32), blobBaseFeeScalar (uint32), sequenceNumber (uint64). */
function slot3(baseFeeScalar: number, blobBaseFeeScalar: number): Hex {
  return concat([pad("0x", { size: 16 }), pad(toHex(baseFeeScalar), { size: 4 }), pad(toHex(blobBaseFeeScalar), { size: 4 }), pad(toHex(0), { size: 8 })]);
}

/** What the helper needs: a provider that takes Hardhat's `hardhat_setStorageAt` (in-process network or `hardhat node`). */
export interface StorageWriter {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

/** Writes the fee scalars into the simulated chain's L1Block, so L1 data fees are no longer 0. */
export async function setSimulatedL1FeeParams(provider: StorageWriter, params = SIMULATED_L1_FEE_PARAMS): Promise<void> {
  await provider.request({ method: "hardhat_setStorageAt", params: [L1_BLOCK, toHex(3), slot3(params.baseFeeScalar, params.blobBaseFeeScalar)] });
}
