// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/**
 * @title ITemplateRegistry
 * @notice Registry of agent templates published by creators on the Muster marketplace.
 */
interface ITemplateRegistry {
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

    /// @dev `account` is the zero address where an address is required.
    error ZeroAddress();
    /// @dev No template has id `templateId`.
    error TemplateNotFound(uint256 templateId);
    /// @dev Template `templateId` is deactivated.
    error TemplateInactive(uint256 templateId);
    /// @dev `caller` is not the creator of template `templateId`.
    error NotTemplateCreator(uint256 templateId, address caller);
    /// @dev `caller` is not the marketplace.
    error NotMarketplace(address caller);
    /// @dev The metadata URI is empty.
    error EmptyMetadataURI();
    /// @dev `royaltyBps` is above `maxRoyaltyBps`.
    error RoyaltyTooHigh(uint16 royaltyBps, uint16 maxRoyaltyBps);
    /// @dev `price` does not fit the stored price width (`maxPrice`).
    error PriceTooHigh(uint256 price, uint256 maxPrice);
    /// @dev Renouncing ownership would strand the registry; it is disabled.
    error RenounceOwnershipDisabled();

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
    /// @notice Emitted when the owner points the registry at a new marketplace.
    event MarketplaceUpdated(address indexed previousMarketplace, address indexed newMarketplace);

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

    /// @notice The marketplace allowed to call {recordInstall}.
    function marketplace() external view returns (address);

    /**
     * @notice Points the registry at `newMarketplace`.
     *
     * Requirements:
     * - the caller is the owner;
     * - `newMarketplace` is not the zero address.
     */
    function setMarketplace(address newMarketplace) external;
}
