// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC721Receiver} from "@openzeppelin/contracts/token/ERC721/IERC721Receiver.sol";

/// @dev Test double: accepts ERC-721 tokens when `accept` is true, otherwise returns a wrong selector.
contract ERC721ReceiverMock is IERC721Receiver {
    bool public immutable accept;

    constructor(bool accept_) {
        accept = accept_;
    }

    function onERC721Received(address, address, uint256, bytes calldata) external view returns (bytes4) {
        return accept ? IERC721Receiver.onERC721Received.selector : bytes4(0xdeadbeef);
    }
}
