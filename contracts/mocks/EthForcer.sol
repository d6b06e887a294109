// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @dev Test double: forces its value into `to` without calling it, as a `selfdestruct` does (since Cancun a
/// `selfdestruct` in the creating transaction still deletes the contract and moves its balance). The
/// marketplace has no `receive`, so this is the way ETH can reach it outside a purchase.
contract EthForcer {
    constructor(address payable to) payable {
        selfdestruct(to);
    }
}
