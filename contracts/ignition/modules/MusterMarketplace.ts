import { buildModule } from "@nomicfoundation/hardhat-ignition/modules";

/**
 * Deploys the template registry, the license token and the marketplace, and points the registry and the
 * token at the marketplace. The deploying account owns all three (ownership transfer is two-step).
 */
export default buildModule("MusterMarketplace", (m) => {
  const owner = m.getAccount(0);
  const registry = m.contract("TemplateRegistry", [owner]);
  const licenseToken = m.contract("LicenseToken", [registry, owner]);
  const marketplace = m.contract("Marketplace", [registry, licenseToken, owner]);
  m.call(registry, "setMarketplace", [marketplace], { id: "registry_setMarketplace" });
  m.call(licenseToken, "setMarketplace", [marketplace], { id: "licenseToken_setMarketplace" });
  return { registry, licenseToken, marketplace };
});
