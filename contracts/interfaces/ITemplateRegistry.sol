// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IMarketplaceBound} from "./IMarketplaceBound.sol";

/**
 * @title ITemplateRegistry
 * @notice Registry of agent templates published by creators on the Muster marketplace.
 */
interface ITemplateRegistry is IMarketplaceBound {
    /// @notice A template as returned by {getTemplate}.
    struct Template {
        uint256 id;
        address creator;
        string metadataURI;
        uint256 price;
        uint16 royaltyBps;
        bool active;
        uint256 installs;
        uint256 createdAt;
    }

    /// @dev No template has this id.
    /// @param templateId The id asked for.
    error TemplateNotFound(uint256 templateId);
    /// @dev The template is deactivated.
    /// @param templateId The deactivated template.
    error TemplateInactive(uint256 templateId);
    /// @dev The caller is not the template's creator.
    /// @param templateId The template.
    /// @param caller The account that called.
    error NotTemplateCreator(uint256 templateId, address caller);
    /// @dev The metadata URI is empty.
    error EmptyMetadataURI();
    /// @dev The royalty is above the cap.
    /// @param royaltyBps The royalty given, in basis points.
    /// @param maxRoyaltyBps The cap, {MAX_ROYALTY_BPS}.
    error RoyaltyTooHigh(uint16 royaltyBps, uint16 maxRoyaltyBps);
    /// @dev The price does not fit the stored price width.
    /// @param price The price given, in wei.
    /// @param maxPrice The largest storable price (2^128 - 1).
    error PriceTooHigh(uint256 price, uint256 maxPrice);

    /// @notice Emitted when `creator` registers template `templateId`.
    event TemplateRegistered(
        uint256 indexed templateId, address indexed creator, string metadataURI, uint256 price, uint16 royaltyBps
    );
    /// @notice Emitted when the creator changes the metadata URI or price of `templateId`.
    event TemplateUpdated(uint256 indexed templateId, string metadataURI, uint256 price);
    /// @notice Emitted when the creator deactivates `templateId`.
    event TemplateDeactivated(uint256 indexed templateId);
    /// @notice Emitted when the marketplace records an install of `templateId` for `buyer`.
    event TemplateInstalled(uint256 indexed templateId, address indexed buyer, uint256 installs);

    /**
     * @notice Publishes a template owned by the caller; it starts active with zero installs.
     * @param metadataURI Where the template's metadata lives (non-empty).
     * @param price Price of a license in wei (0 = free).
     * @param royaltyBps ERC-2981 royalty on license resales, in basis points.
     * @return templateId The new template's id (ids start at 1).
     *
     * Requirements:
     * - `metadataURI` is not empty;
     * - `royaltyBps` is at most {MAX_ROYALTY_BPS};
     * - `price` fits in 128 bits.
     */
    function registerTemplate(string calldata metadataURI, uint256 price, uint16 royaltyBps)
        external
        returns (uint256 templateId);

    /**
     * @notice Changes the metadata URI and price of an active template. The royalty is fixed.
     *
     * Requirements:
     * - the caller is the template's creator;
     * - the template is active;
     * - `metadataURI` is not empty and `price` fits in 128 bits.
     */
    function updateTemplate(uint256 templateId, string calldata metadataURI, uint256 price) external;

    /**
     * @notice Deactivates a template for good: it can no longer be purchased. Licenses already sold stay valid.
     *
     * Requirements:
     * - the caller is the template's creator;
     * - the template is active.
     */
    function deactivateTemplate(uint256 templateId) external;

    /**
     * @notice Counts an install of `templateId` by `buyer` and returns what the marketplace needs to charge.
     * @return creator The template's creator, who is paid for the sale.
     * @return price The template's price in wei.
     *
     * Requirements:
     * - the caller is the marketplace;
     * - the template exists and is active.
     */
    function recordInstall(uint256 templateId, address buyer) external returns (address creator, uint256 price);

    /**
     * @notice Returns the template record `templateId`.
     *
     * Requirements:
     * - the template exists.
     */
    function getTemplate(uint256 templateId) external view returns (Template memory);

    /// @notice Ids of every template `creator` registered, oldest first.
    function getTemplatesByCreator(address creator) external view returns (uint256[] memory);

    /**
     * @notice Creator and royalty of `templateId`, as used for ERC-2981 royalties on license tokens.
     *
     * Requirements:
     * - the template exists.
     */
    function royaltyOf(uint256 templateId) external view returns (address creator, uint16 royaltyBps);

    /// @notice Number of templates registered so far (also the highest id).
    function templateCount() external view returns (uint256);
}
