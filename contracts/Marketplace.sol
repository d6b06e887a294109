// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Ownable2Step} from "@openzeppelin/contracts/access/Ownable2Step.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {IMarketplace} from "./interfaces/IMarketplace.sol";
import {ITemplateRegistry} from "./interfaces/ITemplateRegistry.sol";
import {ILicenseToken} from "./interfaces/ILicenseToken.sol";

/**
 * @title Marketplace
 * @notice Sells template licenses. The spec's calls work as written (`purchase(templateId)`, `withdrawFees()`);
 * the safer forms `purchase(templateId, maxPrice)` and `withdrawFees(to)` are overloads beside them.
 * The buyer is charged exactly the price, never above its `maxPrice` when it gives one (excess
 * refunded, free templates included; a refund the buyer refuses reverts the purchase); the creator receives
 * `price - fee` and the platform keeps the fee, which the owner withdraws. A creator's share that cannot be
 * delivered is held for the creator to withdraw, so a creator can neither block a sale nor lose its share.
 *
 * Balance invariant: `address(this).balance >= accruedFees() + totalHeld()`. It is not an equality because ETH
 * can be forced in without a call (a `selfdestruct` or a block reward aimed at the contract); that surplus
 * belongs to no one, and the owner can sweep it with {sweepSurplus}.
 */
contract Marketplace is IMarketplace, Ownable2Step, Pausable, ReentrancyGuardTransient {
    /// @notice Highest platform fee: 10%.
    uint16 public constant MAX_PLATFORM_FEE_BPS = 1000;
    /// @notice Platform fee when deployed: 2.5%.
    uint16 public constant DEFAULT_PLATFORM_FEE_BPS = 250;
    /// @notice Gas forwarded when pushing a payment during a purchase; enough for a smart wallet's receive,
    /// too little to do anything costly. A recipient that needs more withdraws instead.
    uint256 public constant PUSH_PAYMENT_GAS = 50_000;
    uint256 private constant BPS = 10_000;

    /// @notice The template registry.
    ITemplateRegistry public immutable registry;
    /// @notice The license token.
    ILicenseToken public immutable licenseToken;

    // Packs with Pausable's `_paused` and Ownable2Step's `_pendingOwner`: a purchase reads one slot for both.
    uint16 private _platformFeeBps;
    uint256 private _accruedFees;
    uint256 private _totalHeld;
    mapping(address account => uint256) private _held;

    /**
     * @param registry_ The template registry; it must name this contract as its marketplace.
     * @param licenseToken_ The license token; it must name this contract as its marketplace.
     * @param initialOwner Receives the fees and may pause, set the fee and transfer ownership (two-step).
     */
    constructor(ITemplateRegistry registry_, ILicenseToken licenseToken_, address initialOwner)
        Ownable(initialOwner)
    {
        if (address(registry_) == address(0) || address(licenseToken_) == address(0)) revert ZeroAddress();
        registry = registry_;
        licenseToken = licenseToken_;
        _platformFeeBps = DEFAULT_PLATFORM_FEE_BPS;
    }

    /// @inheritdoc IMarketplace
    function purchase(uint256 templateId) external payable whenNotPaused nonReentrant returns (uint256 tokenId) {
        // The spec's form: no limit beyond the value sent (a price above it is `InsufficientPayment`).
        return _purchase(templateId, type(uint256).max);
    }

    /// @inheritdoc IMarketplace
    function purchase(uint256 templateId, uint256 maxPrice)
        external
        payable
        whenNotPaused
        nonReentrant
        returns (uint256 tokenId)
    {
        return _purchase(templateId, maxPrice);
    }

    /// @inheritdoc IMarketplace
    function hasLicense(address user, uint256 templateId) external view returns (bool) {
        return licenseToken.holdsValidLicense(user, templateId);
    }

    /// @inheritdoc IMarketplace
    function setPlatformFee(uint16 feeBps) external onlyOwner {
        if (feeBps > MAX_PLATFORM_FEE_BPS) revert FeeTooHigh(feeBps, MAX_PLATFORM_FEE_BPS);
        emit PlatformFeeUpdated(_platformFeeBps, feeBps);
        _platformFeeBps = feeBps;
    }

    /// @inheritdoc IMarketplace
    function platformFeeBps() external view returns (uint16) {
        return _platformFeeBps;
    }

    /// @inheritdoc IMarketplace
    function withdrawFees() external onlyOwner nonReentrant {
        // The spec's form: to the owner, the caller.
        _withdrawFees(payable(msg.sender));
    }

    /// @inheritdoc IMarketplace
    function withdrawFees(address payable to) external onlyOwner nonReentrant {
        if (to == address(0)) revert ZeroAddress();
        _withdrawFees(to);
    }

    /// @inheritdoc IMarketplace
    function sweepSurplus(address payable to) external onlyOwner nonReentrant {
        if (to == address(0)) revert ZeroAddress();
        uint256 amount = surplus();
        if (amount == 0) revert NoSurplus();
        emit SurplusSwept(to, amount);
        _send(to, amount);
    }

    /// @inheritdoc IMarketplace
    function surplus() public view returns (uint256) {
        // Never negative: every credit to fees or held balances comes with the ETH that backs it.
        return address(this).balance - _accruedFees - _totalHeld;
    }

    /// @inheritdoc IMarketplace
    function accruedFees() external view returns (uint256) {
        return _accruedFees;
    }

    /// @inheritdoc IMarketplace
    function heldBalanceOf(address account) external view returns (uint256) {
        return _held[account];
    }

    /// @inheritdoc IMarketplace
    function totalHeld() external view returns (uint256) {
        return _totalHeld;
    }

    /// @inheritdoc IMarketplace
    function withdraw() external nonReentrant {
        _withdrawHeld(payable(msg.sender));
    }

    /// @inheritdoc IMarketplace
    function withdrawTo(address payable to) external nonReentrant {
        if (to == address(0)) revert ZeroAddress();
        _withdrawHeld(to);
    }

    /// @inheritdoc IMarketplace
    function pause() external onlyOwner {
        _pause();
    }

    /// @inheritdoc IMarketplace
    function unpause() external onlyOwner {
        _unpause();
    }

    /// @notice Disabled: fees could never be withdrawn again. Always reverts.
    function renounceOwnership() public view override onlyOwner {
        revert RenounceOwnershipDisabled();
    }

    /// @dev Both `purchase` forms: the spec's passes no limit (`type(uint256).max`).
    function _purchase(uint256 templateId, uint256 maxPrice) private returns (uint256 tokenId) {
        // Checks (the registry reverts for unknown or inactive templates; the token for an existing license).
        (address creator, uint256 price) = registry.recordInstall(templateId, msg.sender);
        if (price > maxPrice) revert PriceAboveMax(templateId, price, maxPrice);
        if (msg.value < price) revert InsufficientPayment(templateId, price, msg.value);

        // Effects.
        uint256 fee = price * _platformFeeBps / BPS;
        if (fee != 0) _accruedFees += fee;
        tokenId = licenseToken.mint(msg.sender, templateId);

        // Interactions: a creator share that bounces is held (a creator must not be able to block sales); a
        // refund that bounces reverts the purchase (held, it could be locked forever in a buyer contract that
        // cannot call `withdraw`).
        uint256 excess = msg.value - price;
        emit Purchased(templateId, msg.sender, creator, tokenId, price, fee, excess);
        _pushOrHold(creator, price - fee);
        if (excess != 0) _refund(msg.sender, excess);
    }

    /// @dev Both `withdrawFees` forms.
    function _withdrawFees(address payable to) private {
        uint256 amount = _accruedFees;
        if (amount == 0) revert NoFeesToWithdraw();
        _accruedFees = 0;
        emit FeesWithdrawn(to, amount);
        _send(to, amount);
    }

    function _withdrawHeld(address payable to) private {
        uint256 amount = _held[msg.sender];
        if (amount == 0) revert NothingToWithdraw(msg.sender);
        _held[msg.sender] = 0;
        _totalHeld -= amount;
        emit Withdrawn(msg.sender, to, amount);
        _send(to, amount);
    }

    /// @dev Sends `amount` with bounded gas and no return data copied; on failure credits it to `to`.
    function _pushOrHold(address to, uint256 amount) private {
        if (amount == 0) return;
        bool ok;
        uint256 gasLimit = PUSH_PAYMENT_GAS;
        assembly ("memory-safe") {
            ok := call(gasLimit, to, amount, 0, 0, 0, 0)
        }
        if (!ok) {
            _held[to] += amount;
            _totalHeld += amount;
            emit PaymentHeld(to, amount);
        }
    }

    /// @dev Refunds the buyer's excess with all remaining gas (the buyer pays for it, and the re-entrancy guard
    /// is held); a refusal reverts the whole purchase.
    function _refund(address buyer, uint256 amount) private {
        bool ok;
        assembly ("memory-safe") {
            ok := call(gas(), buyer, amount, 0, 0, 0, 0)
        }
        if (!ok) revert RefundFailed(buyer, amount);
    }

    /// @dev Sends `amount` with all gas (pull side), reverting on failure so nothing is lost.
    function _send(address to, uint256 amount) private {
        bool ok;
        assembly ("memory-safe") {
            ok := call(gas(), to, amount, 0, 0, 0, 0)
        }
        if (!ok) revert TransferFailed(to, amount);
    }
}
