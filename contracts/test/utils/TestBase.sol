// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Vm} from "./Vm.sol";

/// @dev A minimal stand-in for forge-std's Test: the cheatcode handle, assertions that revert on failure,
/// `bound`, and the target lists the invariant runner reads.
abstract contract TestBase {
    Vm internal constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));

    /// @param message What was asserted.
    /// @param left The actual value.
    /// @param right The expected value.
    error AssertionFailed(string message, uint256 left, uint256 right);
    /// @param message What was asserted.
    /// @param left The actual address.
    /// @param right The expected address.
    error AssertionFailedAddress(string message, address left, address right);

    address[] private _targetContracts;

    function targetContracts() public view returns (address[] memory) {
        return _targetContracts;
    }

    function targetContract(address target) internal {
        _targetContracts.push(target);
    }

    function assertEq(uint256 left, uint256 right, string memory message) internal pure {
        if (left != right) revert AssertionFailed(message, left, right);
    }

    function assertEq(address left, address right, string memory message) internal pure {
        if (left != right) revert AssertionFailedAddress(message, left, right);
    }

    function assertTrue(bool condition, string memory message) internal pure {
        if (!condition) revert AssertionFailed(message, 0, 1);
    }

    function assertGe(uint256 left, uint256 right, string memory message) internal pure {
        if (left < right) revert AssertionFailed(message, left, right);
    }

    /// @dev Maps `x` into [min, max] uniformly enough for fuzzing.
    function bound(uint256 x, uint256 min, uint256 max) internal pure returns (uint256) {
        require(min <= max, "bound: min > max");
        if (x >= min && x <= max) return x;
        uint256 size = max - min + 1;
        if (size == 0) return x;
        return min + (x % size);
    }
}
