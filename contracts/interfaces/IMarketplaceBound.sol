// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/**
 * @title IMarketplaceBound
 * @notice What {TemplateRegistry} and {LicenseToken} share: one marketplace, set once by the owner, is the only
 * account allowed to count installs and mint licenses; ownership cannot be renounced.
 */
interface IMarketplaceBound {
    /// @dev An address argument is the zero address.
    error ZeroAddress();
    /// @dev Only the marketplace may call this.
    /// @param caller The account that called instead.
    error NotMarketplace(address caller);
    /// @dev The marketplace is set once and cannot be changed.
    /// @param marketplace The marketplace already set.
    error MarketplaceAlreadySet(address marketplace);
    /// @dev Renouncing ownership would strand the contract; it is disabled.
    error RenounceOwnershipDisabled();

    /// @notice Emitted once, when the owner sets the marketplace.
    event MarketplaceSet(address indexed marketplace);

    /// @notice The marketplace allowed to count installs and mint licenses (zero until set).
    function marketplace() external view returns (address);

    /**
     * @notice Sets the marketplace, once and for all.
     *
     * Requirements:
     * - the caller is the owner;
     * - `newMarketplace` is not the zero address;
     * - no marketplace is set yet.
     */
    function setMarketplace(address newMarketplace) external;
}
