// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {TestBase} from "./utils/TestBase.sol";
import {Deployer} from "./Deployer.sol";
import {TemplateRegistry} from "../TemplateRegistry.sol";
import {LicenseToken} from "../LicenseToken.sol";
import {Marketplace} from "../Marketplace.sol";
import {ITemplateRegistry} from "../interfaces/ITemplateRegistry.sol";
import {IMarketplace} from "../interfaces/IMarketplace.sol";
import {ILicenseToken} from "../interfaces/ILicenseToken.sol";
import {IMarketplaceBound} from "../interfaces/IMarketplaceBound.sol";
import {EthRefusingCreator} from "../mocks/EthRefusingCreator.sol";
import {EthForcer} from "../mocks/EthForcer.sol";
import {ReentrantActor} from "../mocks/ReentrantActor.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";

/// @dev Fuzz properties and attack scenarios (bad-input catalogue, group K).
contract MarketplaceTest is TestBase {
    TemplateRegistry registry;
    LicenseToken license;
    Marketplace market;

    address constant CREATOR = address(0xC0FFEE);
    address constant BUYER = address(0xB0B);
    address constant OTHER = address(0xA11CE);

    receive() external payable {} // the test contract owns the marketplace and receives its fees

    function setUp() public {
        Deployer.System memory s = Deployer.deploy(address(this));
        registry = s.registry;
        license = s.license;
        market = s.market;
    }

    function _register(address creator, uint256 price, uint16 royaltyBps) internal returns (uint256) {
        vm.prank(creator);
        return registry.registerTemplate("ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/template.json", price, royaltyBps);
    }

    /// Without forced ETH the balance is exactly fees + held; `surplus()` is what lies beyond.
    function _solvent() internal view {
        assertEq(address(market).balance, market.accruedFees() + market.totalHeld(), "balance = fees + held");
        assertEq(market.surplus(), 0, "no surplus");
    }

    // ------------------------------------------------------------------ fuzz: the split adds up

    function testFuzz_SplitOfEveryPurchaseAddsUpToPrice(uint256 price, uint16 feeBps, uint256 excess) public {
        _checkSplit(price, feeBps, excess, false);
    }

    /// The spec's `purchase(templateId)`: the same split, exact charge and refund as the overload, no price limit.
    function testFuzz_SpecPurchaseSplitsChargesExactlyAndRefunds(uint256 price, uint16 feeBps, uint256 excess) public {
        _checkSplit(price, feeBps, excess, true);
    }

    /// One sale through either `purchase` form: the split adds up, the buyer pays exactly the price, the token is
    /// the buyer's and the install is counted.
    function _checkSplit(uint256 price, uint16 feeBps, uint256 excess, bool specForm) internal {
        price = bound(price, 0, 1e30);
        feeBps = uint16(bound(feeBps, 0, market.MAX_PLATFORM_FEE_BPS()));
        excess = bound(excess, 0, 1e24);
        market.setPlatformFee(feeBps);
        uint256 id = _register(CREATOR, price, 0);
        vm.deal(BUYER, price + excess);

        uint256 creatorBefore = CREATOR.balance;
        uint256 feesBefore = market.accruedFees();
        vm.prank(BUYER);
        uint256 tokenId = specForm
            ? market.purchase{value: price + excess}(id)
            : market.purchase{value: price + excess}(id, type(uint256).max);

        uint256 creatorGot = CREATOR.balance - creatorBefore;
        uint256 fee = market.accruedFees() - feesBefore;
        assertEq(creatorGot + fee, price, "creator share + fee = price");
        assertEq(fee, price * feeBps / 10_000, "fee = price * bps / 10000");
        assertEq(BUYER.balance, excess, "buyer charged exactly the price");
        assertTrue(license.holdsValidLicense(BUYER, id), "licensed");
        assertEq(license.ownerOf(tokenId), BUYER, "token minted to the buyer");
        assertEq(registry.getTemplate(id).installs, 1, "install counted");
        _solvent();
    }

    function testFuzz_FreeTemplateRefundsEverything(uint96 sent) public {
        uint256 id = _register(CREATOR, 0, 0);
        vm.deal(BUYER, sent);
        vm.prank(BUYER);
        market.purchase{value: sent}(id, type(uint256).max);
        assertEq(BUYER.balance, sent, "all of it refunded");
        assertEq(address(market).balance, 0, "nothing kept");
    }

    function testFuzz_PaymentBelowPriceReverts(uint256 price, uint256 sent) public {
        price = bound(price, 1, 1e30);
        sent = bound(sent, 0, price - 1);
        uint256 id = _register(CREATOR, price, 0);
        vm.deal(BUYER, sent);
        vm.expectRevert(abi.encodeWithSelector(IMarketplace.InsufficientPayment.selector, id, price, sent));
        vm.prank(BUYER);
        market.purchase{value: sent}(id, type(uint256).max);
    }

    // ------------------------------------------------------------------ fuzz: royalties and caps

    function testFuzz_RoyaltyInfoPaysCreator(uint16 royaltyBps, uint256 salePrice) public {
        royaltyBps = uint16(bound(royaltyBps, 0, registry.MAX_ROYALTY_BPS()));
        salePrice = bound(salePrice, 0, 1e40);
        uint256 id = _register(CREATOR, 0, royaltyBps);
        vm.prank(BUYER);
        uint256 tokenId = market.purchase(id, type(uint256).max);
        (address receiver, uint256 amount) = license.royaltyInfo(tokenId, salePrice);
        assertEq(receiver, CREATOR, "royalty receiver is the creator");
        assertEq(amount, salePrice * royaltyBps / 10_000, "royalty amount");
        assertTrue(amount <= salePrice / 10, "at most 10%");
    }

    function testFuzz_RoyaltyOverCapReverts(uint16 royaltyBps) public {
        royaltyBps = uint16(bound(royaltyBps, 1001, type(uint16).max));
        vm.expectRevert(abi.encodeWithSelector(ITemplateRegistry.RoyaltyTooHigh.selector, royaltyBps, uint16(1000)));
        _register(CREATOR, 1, royaltyBps);
    }

    function testFuzz_FeeOverCapReverts(uint16 feeBps) public {
        feeBps = uint16(bound(feeBps, 1001, type(uint16).max));
        vm.expectRevert(abi.encodeWithSelector(IMarketplace.FeeTooHigh.selector, feeBps, uint16(1000)));
        market.setPlatformFee(feeBps);
    }

    function testFuzz_MetadataURIRoundTrips(bytes memory raw) public {
        vm.assume(raw.length > 0 && raw.length < 400);
        vm.prank(CREATOR);
        uint256 id = registry.registerTemplate(string(raw), 1, 0);
        assertTrue(keccak256(bytes(registry.getTemplate(id).metadataURI)) == keccak256(raw), "uri round trip");
        // A shorter update must not leave bytes of the longer one visible.
        vm.prank(CREATOR);
        registry.updateTemplate(id, "x", 2);
        assertTrue(keccak256(bytes(registry.getTemplate(id).metadataURI)) == keccak256("x"), "shorter uri");
    }

    // ------------------------------------------------------------------ an ETH-refusing creator

    function test_RefusingCreatorNeitherBlocksBuyersNorLosesItsShare() public {
        EthRefusingCreator refuser = new EthRefusingCreator();
        uint256 blocked = refuser.register(registry, "ipfs://refuser", 1 ether, 500);
        uint256 fine = _register(CREATOR, 1 ether, 0);
        vm.deal(BUYER, 3 ether);

        vm.startPrank(BUYER);
        market.purchase{value: 1.5 ether}(blocked, type(uint256).max);
        market.purchase{value: 1 ether}(fine, type(uint256).max);
        vm.stopPrank();

        assertEq(BUYER.balance, 1 ether, "buyer charged exactly twice the price");
        assertEq(market.heldBalanceOf(address(refuser)), 0.975 ether, "refuser's share held");
        assertEq(CREATOR.balance, 0.975 ether, "other creator paid");
        _solvent();

        vm.expectRevert(abi.encodeWithSelector(IMarketplace.TransferFailed.selector, address(refuser), 0.975 ether));
        refuser.withdraw(market);
        refuser.withdrawTo(market, payable(OTHER));
        assertEq(OTHER.balance, 0.975 ether, "held share withdrawn elsewhere");
        assertEq(market.totalHeld(), 0, "nothing held any more");
        _solvent();
    }

    function test_RefundToABuyerThatRefusesEthRevertsThePurchase() public {
        EthRefusingCreator refuser = new EthRefusingCreator(); // used here as a buyer contract without receive
        uint256 id = _register(CREATOR, 1 ether, 0);
        vm.deal(address(this), 4 ether);
        vm.expectRevert(abi.encodeWithSelector(IMarketplace.RefundFailed.selector, address(refuser), 2 ether));
        refuser.buy{value: 3 ether}(market, id);
        assertTrue(!license.holdsValidLicense(address(refuser), id), "no license");
        assertEq(market.totalHeld(), 0, "nothing held");
        refuser.buy{value: 1 ether}(market, id); // the exact price needs no refund
        assertTrue(license.holdsValidLicense(address(refuser), id), "licensed");
        _solvent();
    }

    // ------------------------------------------------------------------ maxPrice, fees, forced ETH, wiring

    function testFuzz_PriceAboveMaxReverts(uint256 price, uint256 maxPrice) public {
        price = bound(price, 1, 1e30);
        maxPrice = bound(maxPrice, 0, price - 1);
        uint256 id = _register(CREATOR, price, 0);
        vm.deal(BUYER, price);
        vm.expectRevert(abi.encodeWithSelector(IMarketplace.PriceAboveMax.selector, id, price, maxPrice));
        vm.prank(BUYER);
        market.purchase{value: price}(id, maxPrice);
        vm.prank(BUYER);
        market.purchase{value: price}(id, price); // at the limit is fine
        _solvent();
    }

    // ------------------------------------------------------------------ fuzz: the spec's forms

    /// The spec's form refuses what the overload refuses: too little ETH, a second licence, a pause.
    function testFuzz_SpecPurchaseRefusals(uint256 price, uint256 sent) public {
        price = bound(price, 1, 1e30);
        sent = bound(sent, 0, price - 1);
        uint256 id = _register(CREATOR, price, 0);
        vm.deal(BUYER, sent + 2 * price); // enough to attempt the second purchase too
        vm.expectRevert(abi.encodeWithSelector(IMarketplace.InsufficientPayment.selector, id, price, sent));
        vm.prank(BUYER);
        market.purchase{value: sent}(id);
        vm.prank(BUYER);
        market.purchase{value: price}(id);
        vm.expectRevert(abi.encodeWithSelector(ILicenseToken.AlreadyLicensed.selector, BUYER, id));
        vm.prank(BUYER);
        market.purchase{value: price}(id);
        market.pause();
        vm.expectRevert(Pausable.EnforcedPause.selector);
        vm.prank(OTHER);
        market.purchase(id);
    }

    /// The spec's `withdrawFees()` pays the owner (the caller) all accrued fees; only the owner may call it.
    function testFuzz_SpecWithdrawFeesPaysTheOwner(uint256 price) public {
        price = bound(price, 40, 1e30); // a fee of at least 1 wei at 250 bps
        uint256 id = _register(CREATOR, price, 0);
        vm.deal(BUYER, price);
        vm.prank(BUYER);
        market.purchase{value: price}(id);
        uint256 fees = market.accruedFees();
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, OTHER));
        vm.prank(OTHER);
        market.withdrawFees();
        uint256 before = address(this).balance;
        vm.expectEmit();
        emit IMarketplace.FeesWithdrawn(address(this), fees);
        market.withdrawFees();
        assertEq(address(this).balance - before, fees, "the owner got the fees");
        assertEq(market.accruedFees(), 0, "nothing left");
        vm.expectRevert(IMarketplace.NoFeesToWithdraw.selector);
        market.withdrawFees();
        _solvent();
    }

    function test_WithdrawFeesGoesToTheGivenRecipient() public {
        uint256 id = _register(CREATOR, 1 ether, 0);
        vm.deal(BUYER, 1 ether);
        vm.prank(BUYER);
        market.purchase{value: 1 ether}(id, 1 ether);
        vm.expectRevert(IMarketplace.ZeroAddress.selector);
        market.withdrawFees(payable(address(0)));
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, OTHER));
        vm.prank(OTHER);
        market.withdrawFees(payable(OTHER));
        market.withdrawFees(payable(OTHER));
        assertEq(OTHER.balance, 0.025 ether, "fees at the recipient");
        _solvent();
    }

    function testFuzz_ForcedEthIsSurplusOnlyTheOwnerSweeps(uint96 forced) public {
        vm.assume(forced > 0);
        uint256 id = _register(CREATOR, 1 ether, 0);
        vm.deal(BUYER, 1 ether);
        vm.prank(BUYER);
        market.purchase{value: 1 ether}(id, 1 ether);
        vm.expectRevert(IMarketplace.NoSurplus.selector);
        market.sweepSurplus(payable(OTHER));

        vm.deal(address(this), forced);
        new EthForcer{value: forced}(payable(address(market)));
        assertEq(market.surplus(), forced, "surplus = forced ETH");
        assertGe(address(market).balance, market.accruedFees() + market.totalHeld(), "balance >= fees + held");
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, OTHER));
        vm.prank(OTHER);
        market.sweepSurplus(payable(OTHER));
        market.sweepSurplus(payable(OTHER));
        assertEq(OTHER.balance, forced, "surplus swept");
        assertEq(market.accruedFees(), 0.025 ether, "fees untouched");
        _solvent();
    }

    function test_MarketplaceIsSetOnce() public {
        vm.expectRevert(abi.encodeWithSelector(IMarketplaceBound.MarketplaceAlreadySet.selector, address(market)));
        registry.setMarketplace(OTHER);
        vm.expectRevert(abi.encodeWithSelector(IMarketplaceBound.MarketplaceAlreadySet.selector, address(market)));
        license.setMarketplace(OTHER);
    }

    function test_MintRefusesATemplateThatDoesNotExist() public {
        LicenseToken fresh = new LicenseToken(registry, address(this));
        fresh.setMarketplace(address(this));
        vm.expectRevert(abi.encodeWithSelector(ITemplateRegistry.TemplateNotFound.selector, 1));
        fresh.mint(BUYER, 1);
        _register(CREATOR, 0, 0);
        fresh.mint(BUYER, 1);
        assertTrue(fresh.holdsValidLicense(BUYER, 1), "minted once the template exists");
    }

    // ------------------------------------------------------------------ re-entrancy

    function test_ReentrantBuyerCannotMintTwice() public {
        ReentrantActor attacker = new ReentrantActor(market);
        uint256 a = _register(CREATOR, 1 ether, 0);
        uint256 b = _register(CREATOR, 0, 0);
        attacker.setAttack(ReentrantActor.Attack.Purchase, b);
        vm.deal(address(attacker), 0);
        attacker.buy{value: 2 ether}(a); // the 1 ether refund triggers the re-entry
        assertEq(license.balanceOf(address(attacker)), 1, "one token only");
        assertTrue(!license.holdsValidLicense(address(attacker), b), "re-entrant purchase failed");
        assertEq(license.totalMinted(), 1, "one mint");
        _solvent();
    }

    function test_ReentrantCreatorCannotDrainHeldBalances() public {
        ReentrantActor creator = new ReentrantActor(market);
        EthRefusingCreator refuser = new EthRefusingCreator();
        uint256 held = refuser.register(registry, "ipfs://held", 1 ether, 0);
        uint256 id = creator.register(registry, "ipfs://attacker", 1 ether);
        vm.deal(BUYER, 1 ether);
        vm.prank(BUYER);
        market.purchase{value: 1 ether}(held, type(uint256).max); // 0.975 ether held for the refuser

        // The attacker's share is pushed during the purchase; on receipt it re-enters withdraw (and fails).
        creator.setAttack(ReentrantActor.Attack.Withdraw, 0);
        vm.deal(OTHER, 1 ether);
        vm.prank(OTHER);
        market.purchase{value: 1 ether}(id, type(uint256).max);
        assertEq(market.heldBalanceOf(address(refuser)), 0.975 ether, "other held balance intact");
        assertEq(address(creator).balance + market.heldBalanceOf(address(creator)), 0.975 ether, "own share only");
        _solvent();

        // Re-entering withdrawFees from the owner's side is stopped by the guard too.
        creator.setAttack(ReentrantActor.Attack.WithdrawFees, 0);
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, address(creator)));
        vm.prank(address(creator));
        market.withdrawFees(payable(address(this)));
        _solvent();
    }

    // ------------------------------------------------------------------ pause and ownership

    function test_PauseStopsPurchasesButNotWithdrawals() public {
        uint256 id = _register(CREATOR, 1 ether, 0);
        vm.deal(BUYER, 2 ether);
        vm.prank(BUYER);
        market.purchase{value: 1 ether}(id, type(uint256).max);
        market.pause();
        vm.expectRevert(Pausable.EnforcedPause.selector);
        vm.prank(OTHER);
        market.purchase(id, type(uint256).max);
        uint256 before = address(this).balance;
        market.withdrawFees(payable(address(this)));
        assertEq(address(this).balance - before, 0.025 ether, "fees withdrawn while paused");
        market.unpause();
        vm.deal(OTHER, 1 ether);
        vm.prank(OTHER);
        market.purchase{value: 1 ether}(id, type(uint256).max);
    }

    function test_OwnershipIsTwoStepAndCannotBeRenounced() public {
        market.transferOwnership(OTHER);
        assertEq(market.owner(), address(this), "old owner keeps rights until accepted");
        market.setPlatformFee(100);
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, BUYER));
        vm.prank(BUYER);
        market.acceptOwnership();
        vm.prank(OTHER);
        market.acceptOwnership();
        assertEq(market.owner(), OTHER, "new owner after acceptance");
        vm.expectRevert(abi.encodeWithSelector(Ownable.OwnableUnauthorizedAccount.selector, address(this)));
        market.setPlatformFee(200);
        vm.expectRevert(IMarketplace.RenounceOwnershipDisabled.selector);
        vm.prank(OTHER);
        market.renounceOwnership();
    }

    function test_OnlyTheMarketplaceMintsAndRecordsInstalls() public {
        uint256 id = _register(CREATOR, 0, 0);
        vm.expectRevert(abi.encodeWithSelector(IMarketplaceBound.NotMarketplace.selector, address(this)));
        license.mint(address(this), id);
        vm.expectRevert(abi.encodeWithSelector(IMarketplaceBound.NotMarketplace.selector, address(this)));
        registry.recordInstall(id, address(this));
    }
}
