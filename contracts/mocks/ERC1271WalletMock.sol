// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @dev Test double: a smart-contract wallet that accepts a signature (ERC-1271) when its owner key signed the hash,
/// so licence proofs can be checked for wallets that hold tokens but have no key of their own. It can buy licences
/// (any call its owner makes through {execute}) and receives ETH refunds.
contract ERC1271WalletMock is IERC1271 {
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    /// @inheritdoc IERC1271
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        (address signer, ECDSA.RecoverError error,) = ECDSA.tryRecover(hash, signature);
        return error == ECDSA.RecoverError.NoError && signer == owner ? IERC1271.isValidSignature.selector : bytes4(0xffffffff);
    }

    /// @dev Lets the owner act as the wallet (buy a licence): forwards `data` and `msg.value` to `target`.
    function execute(address target, bytes calldata data) external payable returns (bytes memory result) {
        require(msg.sender == owner, "not the owner");
        bool ok;
        (ok, result) = target.call{value: msg.value}(data);
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(result, 32), mload(result))
            }
        }
    }

    receive() external payable {}
}
