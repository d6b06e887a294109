// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ITemplateRegistry} from "../interfaces/ITemplateRegistry.sol";
import {IMarketplace} from "../interfaces/IMarketplace.sol";

/// @dev Test double: a creator (or buyer) contract that refuses every ETH transfer, so the marketplace has to
/// hold its share (or cannot refund its excess). It can still collect a held balance with
/// {IMarketplace-withdrawTo}.
contract EthRefusingCreator {
    error Refused();

    function register(ITemplateRegistry registry, string calldata uri, uint256 price, uint16 royaltyBps)
        external
        returns (uint256)
    {
        return registry.registerTemplate(uri, price, royaltyBps);
    }

    /// @dev Buys as a contract that refuses ETH: any excess cannot be refunded.
    function buy(IMarketplace market, uint256 templateId) external payable returns (uint256) {
        return market.purchase{value: msg.value}(templateId, type(uint256).max);
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
