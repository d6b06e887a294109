// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {TemplateRegistry} from "../TemplateRegistry.sol";
import {LicenseToken} from "../LicenseToken.sol";
import {Marketplace} from "../Marketplace.sol";

/// @dev Deploys and wires the three contracts the way the Ignition module does, owned by `owner`.
library Deployer {
    struct System {
        TemplateRegistry registry;
        LicenseToken license;
        Marketplace market;
    }

    function deploy(address owner) internal returns (System memory s) {
        s.registry = new TemplateRegistry(address(this));
        s.license = new LicenseToken(s.registry, address(this));
        s.market = new Marketplace(s.registry, s.license, owner);
        s.registry.setMarketplace(address(s.market));
        s.license.setMarketplace(address(s.market));
        if (owner != address(this)) {
            s.registry.transferOwnership(owner);
            s.license.transferOwnership(owner);
        }
    }
}
