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
    /// @dev The value sent is below the template's price.
    /// @param templateId The template.
    /// @param price Its price, in wei.
    /// @param sent The value sent, in wei.
    error InsufficientPayment(uint256 templateId, uint256 price, uint256 sent);
    /// @dev The template's price is above the most the buyer agreed to pay (it was raised after the buyer read it).
    /// @param templateId The template.
    /// @param price Its price when the purchase was mined, in wei.
    /// @param maxPrice The buyer's limit, in wei.
    error PriceAboveMax(uint256 templateId, uint256 price, uint256 maxPrice);
    /// @dev The excess could not be refunded to the buyer (it refuses ETH); the purchase is reverted instead of
    /// keeping the refund. Send exactly the price.
    /// @param buyer The buyer.
    /// @param amount The excess that could not be refunded, in wei.
    error RefundFailed(address buyer, uint256 amount);
    /// @dev The fee is above the cap.
    /// @param feeBps The fee given, in basis points.
    /// @param maxFeeBps The cap, {MAX_PLATFORM_FEE_BPS}.
    error FeeTooHigh(uint16 feeBps, uint16 maxFeeBps);
    /// @dev There are no accrued platform fees.
    error NoFeesToWithdraw();
    /// @dev The account has no held balance.
    /// @param account The caller.
    error NothingToWithdraw(address account);
    /// @dev The balance holds nothing beyond the accrued fees and the held balances.
    error NoSurplus();
    /// @dev Sending ETH failed.
    /// @param to The recipient.
    /// @param amount The amount, in wei.
    error TransferFailed(address to, uint256 amount);
    /// @dev Renouncing ownership would lock the fees; it is disabled.
    error RenounceOwnershipDisabled();

    /// @notice Emitted for every purchase, by both `purchase` forms. `creator` is paid `price - fee`; `excess` was refunded to `buyer`.
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
    /// @notice Emitted by both `withdrawFees` forms: the owner withdrew the accrued platform fees to `to` (the owner
    /// itself for {withdrawFees()}).
    event FeesWithdrawn(address indexed to, uint256 amount);
    /// @notice Emitted when the owner sweeps ETH forced into the contract (beyond fees and held balances) to `to`.
    event SurplusSwept(address indexed to, uint256 amount);
    /// @notice Emitted when the owner changes the platform fee.
    event PlatformFeeUpdated(uint16 previousFeeBps, uint16 newFeeBps);

    /**
     * @notice Buys a license for `templateId`: the spec's call. Exactly the template's price is charged, and the
     * caller sends at least that; any excess is refunded, and a refund that cannot be delivered reverts the
     * purchase. The creator receives `price - fee` (held for withdrawal if it cannot receive ETH), the platform
     * keeps the fee, a license token is minted to the caller and the install is counted. Emits {Purchased}.
     *
     * The price is read when the transaction is mined: a creator may raise it after the buyer read it, up to
     * `msg.value`. A buyer who sends more than the price it read should use {purchase(uint256,uint256)} with that
     * price as `maxPrice` (the SDK always does).
     * @param templateId The template to license.
     * @return tokenId The license token minted to the caller.
     *
     * Requirements:
     * - the marketplace is not paused;
     * - the template exists and is active;
     * - its price is at most `msg.value`;
     * - the caller does not already hold a valid license for it;
     * - the caller accepts the refund of any excess.
     */
    function purchase(uint256 templateId) external payable returns (uint256 tokenId);

    /**
     * @notice Buys a license for `templateId`, never paying more than `maxPrice` (the safer overload of
     * {purchase(uint256)}). Emits {Purchased}. Exactly the template's price is charged; any excess is refunded,
     * and a refund that cannot be delivered reverts the purchase. The creator receives `price - fee`; if the
     * creator cannot receive ETH, the share is held for withdrawal.
     * @param templateId The template to license.
     * @param maxPrice The most the buyer agrees to pay: the price is read when the transaction is mined, and a
     * creator may have raised it since the buyer read it.
     * @return tokenId The license token minted to the caller.
     *
     * Requirements:
     * - the marketplace is not paused;
     * - the template exists and is active;
     * - its price is at most `maxPrice` and at most `msg.value`;
     * - the caller does not already hold a valid license for it;
     * - the caller accepts the refund of any excess.
     */
    function purchase(uint256 templateId, uint256 maxPrice) external payable returns (uint256 tokenId);

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
     * @notice Sends all accrued platform fees to the owner (the caller): the spec's call. Emits {FeesWithdrawn}
     * with `to` the owner. Works while paused. An owner that cannot receive ETH (a contract without `receive`)
     * uses {withdrawFees(address)} instead.
     *
     * Requirements:
     * - the caller is the owner and accepts ETH;
     * - fees have accrued.
     */
    function withdrawFees() external;

    /**
     * @notice Sends all accrued platform fees to `to`, the safer overload of {withdrawFees()}: an owner contract
     * that cannot receive ETH can still collect them. Emits {FeesWithdrawn}. Works while paused.
     *
     * Requirements:
     * - the caller is the owner;
     * - `to` is not the zero address;
     * - fees have accrued.
     */
    function withdrawFees(address payable to) external;

    /**
     * @notice Sends `to` the ETH forced into the contract without a purchase (a `selfdestruct` or a block
     * reward aimed at it): the balance beyond {accruedFees} + {totalHeld}. Works while paused.
     *
     * Requirements:
     * - the caller is the owner;
     * - `to` is not the zero address;
     * - there is a surplus.
     */
    function sweepSurplus(address payable to) external;

    /// @notice The balance beyond {accruedFees} + {totalHeld}, in wei: ETH forced into the contract.
    function surplus() external view returns (uint256);

    /// @notice Platform fees accrued and not yet withdrawn, in wei.
    function accruedFees() external view returns (uint256);

    /// @notice Balance held for `account` (creator shares that could not be sent), in wei.
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
