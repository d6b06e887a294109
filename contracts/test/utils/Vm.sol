// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @dev The subset of the Foundry-compatible cheatcodes (served by Hardhat's EDR) these tests use.
/// forge-std cannot be installed here, so the interface is declared directly.
interface Vm {
    function prank(address sender) external;
    function startPrank(address sender) external;
    function stopPrank() external;
    function deal(address account, uint256 newBalance) external;
    function warp(uint256 newTimestamp) external;
    function assume(bool condition) external pure;
    function expectRevert(bytes calldata revertData) external;
    function expectRevert(bytes4 revertData) external;
    function expectRevert() external;
    function expectEmit(bool checkTopic1, bool checkTopic2, bool checkTopic3, bool checkData) external;
    function expectEmit() external;
    function label(address account, string calldata newLabel) external;
}
