// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC721Metadata} from "@openzeppelin/contracts/token/ERC721/extensions/IERC721Metadata.sol";
import {IERC2981} from "@openzeppelin/contracts/interfaces/IERC2981.sol";
import {IMarketplaceBound} from "./IMarketplaceBound.sol";

/**
 * @title ILicenseToken
 * @notice ERC-721 license tokens: a license for a template is valid while its token is held and not revoked.
 */
interface ILicenseToken is IERC721Metadata, IERC2981, IMarketplaceBound {
    /// @notice A license as returned by {getLicense}.
    struct License {
        uint256 templateId;
        address originalBuyer;
        uint256 purchasedAt;
        bool revoked;
    }

    /// @dev The account already holds a valid license for the template.
    /// @param account The would-be recipient.
    /// @param templateId The template it is licensed for.
    error AlreadyLicensed(address account, uint256 templateId);
    /// @dev The license token is revoked (revoked tokens cannot be revoked again or transferred).
    /// @param tokenId The revoked token.
    error TokenRevoked(uint256 tokenId);
    /// @dev The template id does not fit the 48-bit id stored per token.
    /// @param templateId The id given.
    error TemplateIdTooLarge(uint256 templateId);

    /// @notice Emitted when the marketplace mints license `tokenId` for `templateId` to `to`.
    event LicenseMinted(uint256 indexed tokenId, uint256 indexed templateId, address indexed to);
    /// @notice Emitted when the owner revokes license `tokenId` held by `holder`.
    event LicenseRevoked(uint256 indexed tokenId, uint256 indexed templateId, address indexed holder);

    /**
     * @notice Mints a license token for `templateId` to `to`.
     * @return tokenId The new token's id (ids start at 1).
     *
     * Requirements:
     * - the caller is the marketplace;
     * - the template exists in the registry (else the registry's `TemplateNotFound`);
     * - `to` is not the zero address and does not already hold a valid license for `templateId`.
     */
    function mint(address to, uint256 templateId) external returns (uint256 tokenId);

    /// @notice Whether `user` holds at least one unrevoked license token for `templateId`. O(1).
    function holdsValidLicense(address user, uint256 templateId) external view returns (bool);

    /// @notice Number of unrevoked license tokens for `templateId` that `user` holds.
    function validLicenseCount(address user, uint256 templateId) external view returns (uint256);

    /// @notice Template ids `user` holds a valid license for, without duplicates.
    function licensesOf(address user) external view returns (uint256[] memory);

    /**
     * @notice Revokes license `tokenId`: its holder loses the license; the token is frozen.
     *
     * Requirements:
     * - the caller is the owner;
     * - the token exists and is not already revoked.
     */
    function revokeLicense(uint256 tokenId) external;

    /**
     * @notice The license record of `tokenId`.
     *
     * Requirements:
     * - the token exists.
     */
    function getLicense(uint256 tokenId) external view returns (License memory);

    /// @notice Number of license tokens minted so far (also the highest token id).
    function totalMinted() external view returns (uint256);
}
