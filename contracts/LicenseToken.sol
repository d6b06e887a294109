// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {IERC721} from "@openzeppelin/contracts/token/ERC721/IERC721.sol";
import {IERC721Metadata} from "@openzeppelin/contracts/token/ERC721/extensions/IERC721Metadata.sol";
import {ERC721Utils} from "@openzeppelin/contracts/token/ERC721/utils/ERC721Utils.sol";
import {IERC721Errors} from "@openzeppelin/contracts/interfaces/draft-IERC6093.sol";
import {IERC165} from "@openzeppelin/contracts/utils/introspection/IERC165.sol";
import {IERC2981} from "@openzeppelin/contracts/interfaces/IERC2981.sol";
import {ILicenseToken} from "./interfaces/ILicenseToken.sol";
import {ITemplateRegistry} from "./interfaces/ITemplateRegistry.sol";
import {MarketplaceBound} from "./utils/MarketplaceBound.sol";

/**
 * @title LicenseToken
 * @notice ERC-721 license tokens for Muster templates. A license is valid while its token is held and not
 * revoked; transferring the token moves the license. ERC-2981 royalties on resales go to the template's creator.
 *
 * The ERC-721 core is written here (with OpenZeppelin's interfaces, errors and receiver check) rather than
 * inherited, so that license bookkeeping shares storage slots with ownership data:
 * - a token is one slot: owner, template id, revoked flag and an "approval set" flag (a transfer only touches
 *   the approval slot when an approval exists);
 * - an account is one slot: balance, the length of its template list and the first four template ids of that
 *   list, so a first license costs one slot instead of three;
 * - per (holder, template) one slot counts the holder's valid tokens, so {holdsValidLicense} is O(1) and stays
 *   right when a holder of two tokens gives one away; a "listed" flag keeps {licensesOf} free of duplicates.
 */
contract LicenseToken is ILicenseToken, IERC721Errors, MarketplaceBound {
    /// @dev One slot.
    struct Token {
        address owner;
        uint48 templateId;
        bool revoked;
        bool hasApproval;
    }

    /// @dev One slot, written once at mint.
    struct Origin {
        address originalBuyer;
        uint40 purchasedAt;
    }

    /// @dev One slot: balance, template-list length and the first four entries of the template list.
    struct Account {
        uint32 balance;
        uint32 listLength;
        uint48 list0;
        uint48 list1;
        uint48 list2;
        uint48 list3;
    }

    /// @dev One slot per (holder, template).
    struct Holding {
        uint32 validCount;
        bool listed;
    }

    uint256 private constant INLINE_LIST = 4;
    uint256 private constant BPS = 10_000;

    /// @notice The registry that templates (and their royalties) come from.
    ITemplateRegistry public immutable registry;

    /// @dev Packs into the slot of {MarketplaceBound}'s marketplace address: a mint reads both.
    uint96 private _tokenCount;

    mapping(uint256 tokenId => Token) private _tokens;
    mapping(uint256 tokenId => Origin) private _origins;
    mapping(uint256 tokenId => address) private _tokenApprovals;
    mapping(address owner => mapping(address operator => bool)) private _operatorApprovals;
    mapping(address account => Account) private _accounts;
    mapping(address account => mapping(uint256 index => uint256)) private _listOverflow;
    mapping(address account => mapping(uint256 templateId => Holding)) private _holdings;

    /**
     * @param registry_ The template registry (used for token URIs and royalties).
     * @param initialOwner The account that may revoke licenses and set the marketplace (once).
     */
    constructor(ITemplateRegistry registry_, address initialOwner) Ownable(initialOwner) {
        if (address(registry_) == address(0)) revert ZeroAddress();
        registry = registry_;
    }

    // ---------------------------------------------------------------- licensing

    /// @inheritdoc ILicenseToken
    function mint(address to, uint256 templateId) external onlyMarketplace returns (uint256 tokenId) {
        if (to == address(0)) revert ERC721InvalidReceiver(address(0));
        if (templateId > type(uint48).max) revert TemplateIdTooLarge(templateId);
        // No license for a template that does not exist: reverts with the registry's `TemplateNotFound`. The
        // marketplace has just read the same template slot, so this is a warm call and a warm read.
        registry.royaltyOf(templateId);
        if (_holdings[to][templateId].validCount != 0) revert AlreadyLicensed(to, templateId);

        tokenId = ++_tokenCount;
        _tokens[tokenId] = Token({owner: to, templateId: uint48(templateId), revoked: false, hasApproval: false});
        _origins[tokenId] = Origin({originalBuyer: to, purchasedAt: uint40(block.timestamp)});

        Account memory account = _accounts[to];
        account.balance += 1;
        _addValid(to, account, templateId);
        _accounts[to] = account;

        emit Transfer(address(0), to, tokenId);
        emit LicenseMinted(tokenId, templateId, to);
    }

    /// @inheritdoc ILicenseToken
    function revokeLicense(uint256 tokenId) external onlyOwner {
        Token memory token = _requireToken(tokenId);
        if (token.revoked) revert TokenRevoked(tokenId);
        _tokens[tokenId].revoked = true;
        _holdings[token.owner][token.templateId].validCount -= 1;
        emit LicenseRevoked(tokenId, token.templateId, token.owner);
    }

    /// @inheritdoc ILicenseToken
    function holdsValidLicense(address user, uint256 templateId) external view returns (bool) {
        return _holdings[user][templateId].validCount != 0;
    }

    /// @inheritdoc ILicenseToken
    function validLicenseCount(address user, uint256 templateId) external view returns (uint256) {
        return _holdings[user][templateId].validCount;
    }

    /// @inheritdoc ILicenseToken
    function licensesOf(address user) external view returns (uint256[] memory templateIds) {
        Account memory account = _accounts[user];
        templateIds = new uint256[](account.listLength);
        uint256 found;
        for (uint256 i = 0; i < account.listLength; ++i) {
            uint256 templateId = _listAt(user, account, i);
            if (_holdings[user][templateId].validCount != 0) templateIds[found++] = templateId;
        }
        assembly ("memory-safe") {
            mstore(templateIds, found)
        }
    }

    /// @inheritdoc ILicenseToken
    function getLicense(uint256 tokenId) external view returns (License memory) {
        Token memory token = _requireToken(tokenId);
        Origin memory origin = _origins[tokenId];
        return License({
            templateId: token.templateId,
            originalBuyer: origin.originalBuyer,
            purchasedAt: origin.purchasedAt,
            revoked: token.revoked
        });
    }

    /// @inheritdoc ILicenseToken
    function totalMinted() external view returns (uint256) {
        return _tokenCount;
    }

    // ---------------------------------------------------------------- ERC-2981 and metadata

    /**
     * @notice ERC-2981: the template's creator receives `salePrice * royaltyBps / 10000` on a resale.
     *
     * Requirements:
     * - the token exists.
     */
    function royaltyInfo(uint256 tokenId, uint256 salePrice)
        external
        view
        returns (address receiver, uint256 royaltyAmount)
    {
        Token memory token = _requireToken(tokenId);
        uint16 royaltyBps;
        (receiver, royaltyBps) = registry.royaltyOf(token.templateId);
        royaltyAmount = salePrice * royaltyBps / BPS;
    }

    /// @notice The collection name.
    function name() external pure returns (string memory) {
        return "Muster Template License";
    }

    /// @notice The collection symbol.
    function symbol() external pure returns (string memory) {
        return "MUSTER-LIC";
    }

    /**
     * @notice The metadata URI of the licensed template.
     *
     * Requirements:
     * - the token exists.
     */
    function tokenURI(uint256 tokenId) external view returns (string memory) {
        Token memory token = _requireToken(tokenId);
        return registry.getTemplate(token.templateId).metadataURI;
    }

    /// @notice ERC-165: ERC-721, ERC-721 Metadata, ERC-2981 and ERC-165.
    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == type(IERC721).interfaceId || interfaceId == type(IERC721Metadata).interfaceId
            || interfaceId == type(IERC2981).interfaceId || interfaceId == type(IERC165).interfaceId;
    }

    // ---------------------------------------------------------------- ERC-721

    /**
     * @notice Number of license tokens `owner` holds (revoked ones included).
     *
     * Requirements:
     * - `owner` is not the zero address.
     */
    function balanceOf(address owner) external view returns (uint256) {
        if (owner == address(0)) revert ERC721InvalidOwner(address(0));
        return _accounts[owner].balance;
    }

    /**
     * @notice The holder of `tokenId`.
     *
     * Requirements:
     * - the token exists.
     */
    function ownerOf(uint256 tokenId) external view returns (address) {
        return _requireToken(tokenId).owner;
    }

    /**
     * @notice Lets `to` transfer `tokenId` (the zero address clears the approval).
     *
     * Requirements:
     * - the token exists;
     * - the caller holds the token or is an approved operator of its holder.
     */
    function approve(address to, uint256 tokenId) external {
        Token memory token = _requireToken(tokenId);
        if (msg.sender != token.owner && !_operatorApprovals[token.owner][msg.sender]) {
            revert ERC721InvalidApprover(msg.sender);
        }
        _tokenApprovals[tokenId] = to;
        bool hasApproval = to != address(0);
        if (token.hasApproval != hasApproval) _tokens[tokenId].hasApproval = hasApproval;
        emit Approval(token.owner, to, tokenId);
    }

    /**
     * @notice The account approved for `tokenId`, or the zero address.
     *
     * Requirements:
     * - the token exists.
     */
    function getApproved(uint256 tokenId) external view returns (address) {
        Token memory token = _requireToken(tokenId);
        return token.hasApproval ? _tokenApprovals[tokenId] : address(0);
    }

    /**
     * @notice Lets `operator` transfer all of the caller's tokens, or stops it.
     *
     * Requirements:
     * - `operator` is not the zero address.
     */
    function setApprovalForAll(address operator, bool approved) external {
        if (operator == address(0)) revert ERC721InvalidOperator(address(0));
        _operatorApprovals[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    /// @notice Whether `operator` may transfer all of `owner`'s tokens.
    function isApprovedForAll(address owner, address operator) external view returns (bool) {
        return _operatorApprovals[owner][operator];
    }

    /**
     * @notice Moves `tokenId`, and the license it carries, from `from` to `to`.
     *
     * Requirements:
     * - `from` holds the token and `to` is not the zero address;
     * - the caller is `from`, approved for the token, or an operator of `from`;
     * - the token is not revoked.
     */
    function transferFrom(address from, address to, uint256 tokenId) public {
        _transfer(from, to, tokenId);
    }

    /**
     * @notice Like {transferFrom}, then checks that a contract recipient accepts ERC-721 tokens.
     *
     * Requirements: those of {transferFrom}; a contract `to` implements {IERC721Receiver-onERC721Received}.
     */
    function safeTransferFrom(address from, address to, uint256 tokenId) external {
        safeTransferFrom(from, to, tokenId, "");
    }

    /**
     * @notice Like {transferFrom}, then checks that a contract recipient accepts ERC-721 tokens, passing `data`.
     *
     * Requirements: those of {transferFrom}; a contract `to` implements {IERC721Receiver-onERC721Received}.
     */
    function safeTransferFrom(address from, address to, uint256 tokenId, bytes memory data) public {
        _transfer(from, to, tokenId);
        ERC721Utils.checkOnERC721Received(msg.sender, from, to, tokenId, data);
    }

    // ---------------------------------------------------------------- internals

    function _transfer(address from, address to, uint256 tokenId) private {
        Token memory token = _tokens[tokenId];
        if (token.owner == address(0)) revert ERC721NonexistentToken(tokenId);
        if (token.owner != from) revert ERC721IncorrectOwner(from, tokenId, token.owner);
        if (to == address(0)) revert ERC721InvalidReceiver(address(0));
        if (
            msg.sender != from && !_operatorApprovals[from][msg.sender]
                && !(token.hasApproval && _tokenApprovals[tokenId] == msg.sender)
        ) revert ERC721InsufficientApproval(msg.sender, tokenId);
        if (token.revoked) revert TokenRevoked(tokenId);

        if (token.hasApproval) {
            delete _tokenApprovals[tokenId];
            token.hasApproval = false;
        }
        token.owner = to;
        _tokens[tokenId] = token;

        if (from != to) {
            Account memory sender = _accounts[from];
            sender.balance -= 1;
            _accounts[from] = sender;
            _holdings[from][token.templateId].validCount -= 1;

            Account memory recipient = _accounts[to];
            recipient.balance += 1;
            _addValid(to, recipient, token.templateId);
            _accounts[to] = recipient;
        }
        emit Transfer(from, to, tokenId);
    }

    /// @dev Counts one more valid token of `templateId` for `holder`, listing the template the first time.
    function _addValid(address holder, Account memory account, uint256 templateId) private {
        Holding memory holding = _holdings[holder][templateId];
        holding.validCount += 1;
        if (!holding.listed) {
            holding.listed = true;
            _push(holder, account, templateId);
        }
        _holdings[holder][templateId] = holding;
    }

    function _push(address holder, Account memory account, uint256 templateId) private {
        uint256 index = account.listLength;
        uint48 id = uint48(templateId);
        if (index == 0) account.list0 = id;
        else if (index == 1) account.list1 = id;
        else if (index == 2) account.list2 = id;
        else if (index == 3) account.list3 = id;
        else _listOverflow[holder][index - INLINE_LIST] = templateId;
        account.listLength += 1;
    }

    function _listAt(address holder, Account memory account, uint256 index) private view returns (uint256) {
        if (index == 0) return account.list0;
        if (index == 1) return account.list1;
        if (index == 2) return account.list2;
        if (index == 3) return account.list3;
        return _listOverflow[holder][index - INLINE_LIST];
    }

    function _requireToken(uint256 tokenId) private view returns (Token memory token) {
        token = _tokens[tokenId];
        if (token.owner == address(0)) revert ERC721NonexistentToken(tokenId);
    }
}
