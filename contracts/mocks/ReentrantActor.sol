// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ITemplateRegistry} from "../interfaces/ITemplateRegistry.sol";
import {IMarketplace} from "../interfaces/IMarketplace.sol";

/// @dev Test double: an attacker that re-enters the marketplace from `receive` — as a buyer receiving its
/// refund, or as a creator receiving its share. Every attempt is reported as an event.
contract ReentrantActor {
    enum Attack {
        None,
        Purchase,
        Withdraw,
        WithdrawFees
    }

    IMarketplace public immutable market;
    Attack public attack;
    uint256 public targetTemplate;

    /// @dev An event rather than storage: pushes during a purchase carry bounded gas.
    event ReentryAttempted(Attack attack, bool succeeded, bytes returnData);

    constructor(IMarketplace market_) {
        market = market_;
    }

    function setAttack(Attack attack_, uint256 templateId) external {
        attack = attack_;
        targetTemplate = templateId;
    }

    function register(ITemplateRegistry registry, string calldata uri, uint256 price) external returns (uint256) {
        return registry.registerTemplate(uri, price, 0);
    }

    function buy(uint256 templateId) external payable returns (uint256) {
        return market.purchase{value: msg.value}(templateId, type(uint256).max);
    }

    function withdraw() external {
        market.withdraw();
    }

    receive() external payable {
        Attack current = attack;
        if (current == Attack.None) return;
        attack = Attack.None; // one attempt per payment
        bool ok;
        bytes memory data;
        if (current == Attack.Purchase) {
            (ok, data) = address(market).call{value: address(this).balance}(
                // `purchase` is overloaded, so `abi.encodeCall` cannot name one form; the selector does.
                abi.encodeWithSignature("purchase(uint256,uint256)", targetTemplate, type(uint256).max)
            );
        } else if (current == Attack.Withdraw) {
            (ok, data) = address(market).call(abi.encodeCall(IMarketplace.withdraw, ()));
        } else {
            (ok, data) = address(market).call(abi.encodeWithSignature("withdrawFees(address)", address(this)));
        }
        emit ReentryAttempted(current, ok, data);
    }
}
