// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {IMarketplaceBound} from "../interfaces/IMarketplaceBound.sol";

/**
 * @title MarketplaceBound
 * @notice The block {TemplateRegistry} and {LicenseToken} share: a marketplace the owner sets once (so the owner
 * cannot later point the contract at an account that mints licenses or counts installs without a purchase),
 * the `onlyMarketplace` check, and ownership that cannot be renounced.
 *
 * `_marketplace` is the only variable declared here: the derived contract's first variable packs into its slot
 * (storage is laid out base-first and packing crosses contract boundaries), so a mint or an install still
 * reads one slot for the marketplace and its counter.
 */
abstract contract MarketplaceBound is IMarketplaceBound, Ownable2Step {
    address private _marketplace;

    modifier onlyMarketplace() {
        if (msg.sender != _marketplace) revert NotMarketplace(msg.sender);
        _;
    }

    /// @inheritdoc IMarketplaceBound
    function marketplace() external view returns (address) {
        return _marketplace;
    }

    /// @inheritdoc IMarketplaceBound
    function setMarketplace(address newMarketplace) external onlyOwner {
        if (newMarketplace == address(0)) revert ZeroAddress();
        if (_marketplace != address(0)) revert MarketplaceAlreadySet(_marketplace);
        _marketplace = newMarketplace;
        emit MarketplaceSet(newMarketplace);
    }

    /// @notice Disabled: the contract must always have an owner. Always reverts.
    function renounceOwnership() public view override onlyOwner {
        revert RenounceOwnershipDisabled();
    }
}
