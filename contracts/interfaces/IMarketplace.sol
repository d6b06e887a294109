// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/**
 * @title IMarketplace
 * @notice Sells template licenses: charges exactly the price, splits it between the creator and the platform,
 * mints the license token and counts the install.
 */
interface IMarketplace {
    /// @dev An address argument is the zero address.
    error ZeroAddress();
    /// @dev `sent` wei is below the `price` of template `templateId`.
    error InsufficientPayment(uint256 templateId, uint256 price, uint256 sent);
    /// @dev `feeBps` is above `maxFeeBps`.
    error FeeTooHigh(uint16 feeBps, uint16 maxFeeBps);
    /// @dev There are no accrued platform fees.
    error NoFeesToWithdraw();
    /// @dev `account` has no held balance.
    error NothingToWithdraw(address account);
    /// @dev Sending `amount` wei to `to` failed.
    error TransferFailed(address to, uint256 amount);
    /// @dev Renouncing ownership would lock the fees; it is disabled.
    error RenounceOwnershipDisabled();

    /// @notice Emitted for every purchase. `creator` is paid `price - fee`; `excess` was refunded to `buyer`.
    event Purchased(
        uint256 indexed templateId,
        address indexed buyer,
        address indexed creator,
        uint256 tokenId,
        uint256 price,
        uint256 fee,
        uint256 excess
    );
    /// @notice Emitted when a payment to `account` could not be sent and is held for it to withdraw.
    event PaymentHeld(address indexed account, uint256 amount);
    /// @notice Emitted when `account` withdraws its held balance to `to`.
    event Withdrawn(address indexed account, address indexed to, uint256 amount);
    /// @notice Emitted when the owner withdraws accrued platform fees.
    event FeesWithdrawn(address indexed to, uint256 amount);
    /// @notice Emitted when the owner changes the platform fee.
    event PlatformFeeUpdated(uint16 previousFeeBps, uint16 newFeeBps);

    /**
     * @notice Buys a license for `templateId`. Exactly the template's price is charged; any excess is refunded.
     * The creator receives `price - fee`; if the creator cannot receive ETH, the share is held for withdrawal.
     * @return tokenId The license token minted to the caller.
     *
     * Requirements:
     * - the marketplace is not paused;
     * - the template exists and is active;
     * - `msg.value` is at least the price;
     * - the caller does not already hold a valid license for it.
     */
    function purchase(uint256 templateId) external payable returns (uint256 tokenId);

    /// @notice Whether `user` holds a valid license for `templateId`.
    function hasLicense(address user, uint256 templateId) external view returns (bool);

    /**
     * @notice Sets the platform fee taken from each sale.
     *
     * Requirements:
     * - the caller is the owner;
     * - `feeBps` is at most {MAX_PLATFORM_FEE_BPS}.
     */
    function setPlatformFee(uint16 feeBps) external;

    /// @notice The platform fee in basis points.
    function platformFeeBps() external view returns (uint16);

    /**
     * @notice Sends all accrued platform fees to the owner. Works while paused.
     *
     * Requirements:
     * - the caller is the owner;
     * - fees have accrued.
     */
    function withdrawFees() external;

    /// @notice Platform fees accrued and not yet withdrawn, in wei.
    function accruedFees() external view returns (uint256);

    /// @notice Balance held for `account` (creator shares or refunds that could not be sent), in wei.
    function heldBalanceOf(address account) external view returns (uint256);

    /// @notice Sum of all held balances, in wei.
    function totalHeld() external view returns (uint256);

    /**
     * @notice Sends the caller's held balance to the caller. Works while paused.
     *
     * Requirements:
     * - the caller has a held balance.
     */
    function withdraw() external;

    /**
     * @notice Sends the caller's held balance to `to`. Works while paused.
     *
     * Requirements:
     * - `to` is not the zero address;
     * - the caller has a held balance.
     */
    function withdrawTo(address payable to) external;

    /**
     * @notice Stops purchases. Withdrawals keep working.
     *
     * Requirements:
     * - the caller is the owner; the marketplace is not paused.
     */
    function pause() external;

    /**
     * @notice Resumes purchases.
     *
     * Requirements:
     * - the caller is the owner; the marketplace is paused.
     */
    function unpause() external;
}
