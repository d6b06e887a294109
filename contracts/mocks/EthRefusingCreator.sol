// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ITemplateRegistry} from "../interfaces/ITemplateRegistry.sol";
import {IMarketplace} from "../interfaces/IMarketplace.sol";

/// @dev Test double: a creator contract that refuses every ETH transfer, so the marketplace has to hold its
/// share. It can still collect the held balance with {IMarketplace-withdrawTo}.
contract EthRefusingCreator {
    error Refused();

    function register(ITemplateRegistry registry, string calldata uri, uint256 price, uint16 royaltyBps)
        external
        returns (uint256)
    {
        return registry.registerTemplate(uri, price, royaltyBps);
    }

    function withdrawTo(IMarketplace market, address payable to) external {
        market.withdrawTo(to);
    }

    function withdraw(IMarketplace market) external {
        market.withdraw();
    }

    receive() external payable {
        revert Refused();
    }
}
