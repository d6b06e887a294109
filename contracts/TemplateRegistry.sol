// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ITemplateRegistry} from "./interfaces/ITemplateRegistry.sol";
import {MarketplaceBound} from "./utils/MarketplaceBound.sol";

/**
 * @title TemplateRegistry
 * @notice Agent templates published by creators. Only the marketplace may count installs.
 *
 * Storage is laid out for cheap purchases and registrations: a template is two packed slots plus its URI,
 * the URI is stored as raw 32-byte words with its length kept in the first template slot, and the per-creator
 * list is a linked list threaded through the templates (one slot per creator instead of a growing array).
 */
contract TemplateRegistry is ITemplateRegistry, MarketplaceBound {
    /// @notice Highest royalty a template may carry: 10%.
    uint16 public constant MAX_ROYALTY_BPS = 1000;
    /// @dev Namespace of the URI word slots: keccak256("muster.TemplateRegistry.uri").
    bytes32 private constant URI_NAMESPACE = keccak256("muster.TemplateRegistry.uri");

    /// @dev Two slots. Slot 0 holds what a purchase checks, slot 1 what a purchase reads and writes.
    struct StoredTemplate {
        // slot 0
        address creator;
        uint16 royaltyBps;
        bool active;
        uint40 createdAt;
        uint32 uriLength;
        // slot 1
        uint128 price;
        uint64 installs;
        uint48 previousByCreator;
    }

    /// @dev One slot per creator: the newest template id and how many there are.
    struct CreatorIndex {
        uint48 lastId;
        uint48 count;
    }

    /// @dev Packs into the slot of {MarketplaceBound}'s marketplace address.
    uint48 private _templateCount;

    mapping(uint256 templateId => StoredTemplate) private _templates;
    mapping(address creator => CreatorIndex) private _creators;

    /// @param initialOwner The account that may set the marketplace, once (two-step transferable).
    constructor(address initialOwner) Ownable(initialOwner) {}

    modifier onlyCreator(uint256 templateId) {
        address creator = _templates[templateId].creator;
        if (creator == address(0)) revert TemplateNotFound(templateId);
        if (creator != msg.sender) revert NotTemplateCreator(templateId, msg.sender);
        _;
    }

    /// @inheritdoc ITemplateRegistry
    function registerTemplate(string calldata metadataURI, uint256 price, uint16 royaltyBps)
        external
        returns (uint256 templateId)
    {
        _checkMetadata(metadataURI, price);
        if (royaltyBps > MAX_ROYALTY_BPS) revert RoyaltyTooHigh(royaltyBps, MAX_ROYALTY_BPS);

        templateId = ++_templateCount;
        CreatorIndex memory index = _creators[msg.sender];
        _templates[templateId] = StoredTemplate({
            creator: msg.sender,
            royaltyBps: royaltyBps,
            active: true,
            createdAt: uint40(block.timestamp),
            uriLength: uint32(bytes(metadataURI).length),
            price: uint128(price),
            installs: 0,
            previousByCreator: index.lastId
        });
        _creators[msg.sender] = CreatorIndex({lastId: uint48(templateId), count: index.count + 1});
        _writeURI(templateId, metadataURI);

        emit TemplateRegistered(templateId, msg.sender, metadataURI, price, royaltyBps);
    }

    /// @inheritdoc ITemplateRegistry
    function updateTemplate(uint256 templateId, string calldata metadataURI, uint256 price)
        external
        onlyCreator(templateId)
    {
        StoredTemplate storage t = _templates[templateId];
        if (!t.active) revert TemplateInactive(templateId);
        _checkMetadata(metadataURI, price);

        t.uriLength = uint32(bytes(metadataURI).length);
        t.price = uint128(price);
        _writeURI(templateId, metadataURI);

        emit TemplateUpdated(templateId, metadataURI, price);
    }

    /// @inheritdoc ITemplateRegistry
    function deactivateTemplate(uint256 templateId) external onlyCreator(templateId) {
        StoredTemplate storage t = _templates[templateId];
        if (!t.active) revert TemplateInactive(templateId);
        t.active = false;
        emit TemplateDeactivated(templateId);
    }

    /// @inheritdoc ITemplateRegistry
    function recordInstall(uint256 templateId, address buyer)
        external
        onlyMarketplace
        returns (address creator, uint256 price)
    {
        StoredTemplate storage t = _templates[templateId];
        creator = t.creator;
        if (creator == address(0)) revert TemplateNotFound(templateId);
        if (!t.active) revert TemplateInactive(templateId);
        price = t.price;
        uint64 installs = t.installs + 1;
        t.installs = installs;
        emit TemplateInstalled(templateId, buyer, installs);
    }

    /// @inheritdoc ITemplateRegistry
    function getTemplate(uint256 templateId) external view returns (Template memory) {
        StoredTemplate memory t = _templates[templateId];
        if (t.creator == address(0)) revert TemplateNotFound(templateId);
        return Template({
            id: templateId,
            creator: t.creator,
            metadataURI: _readURI(templateId, t.uriLength),
            price: t.price,
            royaltyBps: t.royaltyBps,
            active: t.active,
            installs: t.installs,
            createdAt: t.createdAt
        });
    }

    /// @inheritdoc ITemplateRegistry
    function getTemplatesByCreator(address creator) external view returns (uint256[] memory ids) {
        CreatorIndex memory index = _creators[creator];
        ids = new uint256[](index.count);
        uint256 id = index.lastId;
        for (uint256 i = index.count; i > 0; --i) {
            ids[i - 1] = id;
            id = _templates[id].previousByCreator;
        }
    }

    /// @inheritdoc ITemplateRegistry
    function royaltyOf(uint256 templateId) external view returns (address creator, uint16 royaltyBps) {
        StoredTemplate storage t = _templates[templateId];
        creator = t.creator;
        if (creator == address(0)) revert TemplateNotFound(templateId);
        royaltyBps = t.royaltyBps;
    }

    /// @inheritdoc ITemplateRegistry
    function templateCount() external view returns (uint256) {
        return _templateCount;
    }

    function _checkMetadata(string calldata metadataURI, uint256 price) private pure {
        if (bytes(metadataURI).length == 0) revert EmptyMetadataURI();
        if (price > type(uint128).max) revert PriceTooHigh(price, type(uint128).max);
    }

    /// @dev Stores the URI as whole 32-byte words (the last one zero-padded) in consecutive slots from
    /// {_uriBase}; the length lives in the template's first slot.
    function _writeURI(uint256 templateId, string calldata uri) private {
        uint256 base = _uriBase(templateId);
        uint256 length = bytes(uri).length;
        uint256 fullWords = length >> 5;
        assembly ("memory-safe") {
            for { let i := 0 } lt(i, fullWords) { i := add(i, 1) } {
                sstore(add(base, i), calldataload(add(uri.offset, shl(5, i))))
            }
            let tail := and(length, 31)
            if tail {
                // Keep only the `tail` leading bytes of the last word.
                let word := calldataload(add(uri.offset, shl(5, fullWords)))
                sstore(add(base, fullWords), and(word, not(shr(shl(3, tail), not(0)))))
            }
        }
    }

    function _readURI(uint256 templateId, uint256 length) private view returns (string memory uri) {
        uint256 base = _uriBase(templateId);
        uri = new string(length);
        // `new string` reserves whole words, so writing whole words stays inside it; stored words are
        // zero-padded, so the bytes past `length` are zero.
        assembly ("memory-safe") {
            let words := shr(5, add(length, 31))
            for { let i := 0 } lt(i, words) { i := add(i, 1) } {
                mstore(add(add(uri, 32), shl(5, i)), sload(add(base, i)))
            }
        }
    }

    /// @dev First slot of a template's URI words: a hash of the id under a namespace of its own, so the
    /// words of different templates never meet and no other variable lives there.
    function _uriBase(uint256 templateId) private pure returns (uint256) {
        return uint256(keccak256(abi.encode(URI_NAMESPACE, templateId)));
    }
}
