// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {TestBase} from "./utils/TestBase.sol";
import {Vm} from "./utils/Vm.sol";
import {Deployer} from "./Deployer.sol";
import {TemplateRegistry} from "../TemplateRegistry.sol";
import {LicenseToken} from "../LicenseToken.sol";
import {Marketplace} from "../Marketplace.sol";
import {EthRefusingCreator} from "../mocks/EthRefusingCreator.sol";

/// @dev Drives random purchases, transfers, revocations, withdrawals and fee changes, keeping ghost counts.
contract MarketplaceHandler {
    Vm internal constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));

    TemplateRegistry public immutable registry;
    LicenseToken public immutable license;
    Marketplace public immutable market;
    address public immutable owner;
    EthRefusingCreator public immutable refuser;

    address[] public actors;
    uint256[] public templates;
    uint256 public purchases;
    uint256 public revocations;
    /// Ghosts: ETH forced into the marketplace without a call, and surplus swept out by the owner.
    uint256 public forced;
    uint256 public swept;

    constructor(TemplateRegistry registry_, LicenseToken license_, Marketplace market_, address owner_) {
        registry = registry_;
        license = license_;
        market = market_;
        owner = owner_;
        refuser = new EthRefusingCreator();
        actors.push(address(0xA1));
        actors.push(address(0xA2));
        actors.push(address(0xA3));
        actors.push(address(refuser));
        templates.push(refuser.register(registry, "ipfs://refuser", 1 ether, 100));
        vm.prank(address(0xA1));
        templates.push(registry.registerTemplate("ipfs://a1", 0.3 ether, 0));
        vm.prank(address(0xA2));
        templates.push(registry.registerTemplate("ipfs://a2-free", 0, 1000));
    }

    function actorCount() external view returns (uint256) {
        return actors.length;
    }

    function templateCount() external view returns (uint256) {
        return templates.length;
    }

    function register(uint256 actorSeed, uint256 price) external {
        address creator = actors[actorSeed % 3]; // the refuser's templates are made in the constructor
        vm.prank(creator);
        templates.push(registry.registerTemplate("ipfs://fuzzed", price % 5 ether, uint16(price % 1001)));
    }

    function purchase(uint256 actorSeed, uint256 templateSeed, uint256 excess) external {
        address buyer = actors[actorSeed % 3];
        uint256 templateId = templates[templateSeed % templates.length];
        if (market.paused() || license.holdsValidLicense(buyer, templateId)) return;
        if (!registry.getTemplate(templateId).active) return;
        uint256 price = registry.getTemplate(templateId).price;
        uint256 value = price + (excess % 1 ether);
        vm.deal(buyer, buyer.balance + value);
        vm.prank(buyer);
        market.purchase{value: value}(templateId, price);
        purchases += 1;
    }

    /// The spec's `purchase(templateId)`: no price limit, the excess refunded.
    function purchaseSpecForm(uint256 actorSeed, uint256 templateSeed, uint256 excess) external {
        address buyer = actors[actorSeed % 3];
        uint256 templateId = templates[templateSeed % templates.length];
        if (market.paused() || license.holdsValidLicense(buyer, templateId)) return;
        if (!registry.getTemplate(templateId).active) return;
        uint256 value = registry.getTemplate(templateId).price + (excess % 1 ether);
        vm.deal(buyer, buyer.balance + value);
        vm.prank(buyer);
        market.purchase{value: value}(templateId);
        purchases += 1;
    }

    function transfer(uint256 tokenSeed, uint256 toSeed) external {
        uint256 minted = license.totalMinted();
        if (minted == 0) return;
        uint256 tokenId = tokenSeed % minted + 1;
        if (license.getLicense(tokenId).revoked) return;
        address from = license.ownerOf(tokenId);
        address to = actors[toSeed % actors.length];
        vm.prank(from);
        license.transferFrom(from, to, tokenId);
    }

    function revoke(uint256 tokenSeed) external {
        uint256 minted = license.totalMinted();
        if (minted == 0) return;
        uint256 tokenId = tokenSeed % minted + 1;
        if (license.getLicense(tokenId).revoked) return;
        vm.prank(owner);
        license.revokeLicense(tokenId);
        revocations += 1;
    }

    function deactivate(uint256 templateSeed) external {
        uint256 templateId = templates[templateSeed % templates.length];
        if (!registry.getTemplate(templateId).active || templateId == templates[0]) return;
        vm.prank(registry.getTemplate(templateId).creator);
        registry.deactivateTemplate(templateId);
    }

    function setFee(uint16 feeBps) external {
        vm.prank(owner);
        market.setPlatformFee(feeBps % 1001);
    }

    function withdrawFees() external {
        if (market.accruedFees() == 0) return;
        vm.prank(owner);
        market.withdrawFees(payable(address(0xFEE5)));
    }

    /// The spec's `withdrawFees()`: to the owner.
    function withdrawFeesToOwner() external {
        if (market.accruedFees() == 0) return;
        vm.prank(owner);
        market.withdrawFees();
    }

    /// ETH arriving without a call (a selfdestruct or a block reward aimed at the marketplace).
    function forceEth(uint96 amount) external {
        vm.deal(address(market), address(market).balance + amount);
        forced += amount;
    }

    function sweepSurplus() external {
        uint256 amount = market.surplus();
        if (amount == 0) return;
        vm.prank(owner);
        market.sweepSurplus(payable(address(0x5EE9)));
        swept += amount;
    }

    function withdrawHeld() external {
        if (market.heldBalanceOf(address(refuser)) == 0) return;
        refuser.withdrawTo(market, payable(address(0xFEE)));
    }

    function pauseToggle() external {
        bool paused = market.paused();
        vm.prank(owner);
        if (paused) market.unpause();
        else market.pause();
    }
}

/// @dev Invariants of the marketplace under random operation sequences (bad-input catalogue K.75a).
contract MarketplaceInvariantTest is TestBase {
    MarketplaceHandler handler;
    Deployer.System s;
    address constant OWNER = address(0x0E0E);

    function setUp() public {
        s = Deployer.deploy(OWNER);
        vm.startPrank(OWNER);
        s.registry.acceptOwnership();
        s.license.acceptOwnership();
        vm.stopPrank();
        handler = new MarketplaceHandler(s.registry, s.license, s.market, OWNER);
        targetContract(address(handler));
    }

    /// The marketplace holds at least the accrued fees plus the balances held for withdrawal; anything beyond is
    /// ETH forced in and not yet swept, which is exactly what `surplus()` reports.
    function invariant_BalanceCoversFeesPlusHeld() public view {
        uint256 owed = s.market.accruedFees() + s.market.totalHeld();
        assertGe(address(s.market).balance, owed, "solvency: balance >= fees + held");
        assertEq(address(s.market).balance, owed + handler.forced() - handler.swept(), "balance = owed + unswept forced");
        assertEq(s.market.surplus(), handler.forced() - handler.swept(), "surplus = unswept forced ETH");
        assertEq(s.market.totalHeld(), s.market.heldBalanceOf(address(handler.refuser())), "only the refuser is held");
    }

    /// Valid licenses = purchases - revocations, counted by token and by holder.
    function invariant_ValidLicensesMatchPurchasesMinusRevocations() public view {
        uint256 minted = s.license.totalMinted();
        assertEq(minted, handler.purchases(), "one token per purchase");
        uint256 valid;
        for (uint256 tokenId = 1; tokenId <= minted; ++tokenId) {
            if (!s.license.getLicense(tokenId).revoked) valid += 1;
        }
        assertEq(valid, handler.purchases() - handler.revocations(), "valid tokens");

        uint256 counted;
        for (uint256 a = 0; a < handler.actorCount(); ++a) {
            address actor = handler.actors(a);
            uint256[] memory listed = s.license.licensesOf(actor);
            uint256 listedValid;
            for (uint256 t = 0; t < handler.templateCount(); ++t) {
                uint256 templateId = handler.templates(t);
                uint256 count = s.license.validLicenseCount(actor, templateId);
                counted += count;
                if (count != 0) listedValid += 1;
                assertTrue(s.license.holdsValidLicense(actor, templateId) == (count != 0), "holds = count > 0");
            }
            assertEq(listed.length, listedValid, "licensesOf lists each valid template once");
            for (uint256 i = 0; i < listed.length; ++i) {
                for (uint256 j = i + 1; j < listed.length; ++j) {
                    assertTrue(listed[i] != listed[j], "no duplicates");
                }
            }
        }
        assertEq(counted, valid, "per-holder counts add up");
    }

    /// Install counts equal the number of purchases.
    function invariant_InstallsMatchPurchases() public view {
        uint256 installs;
        for (uint256 t = 0; t < handler.templateCount(); ++t) {
            installs += s.registry.getTemplate(handler.templates(t)).installs;
        }
        assertEq(installs, handler.purchases(), "installs");
    }
}
