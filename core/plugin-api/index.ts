/**
 * `@muster/plugin`: the only module a plugin imports from the host. Built-in plugins import
 * it by this name too; in this repository it resolves to these sources (the `source` export
 * condition), in a published package to dist/ (JavaScript + .d.ts).
 * See the README's "Writing a plugin" section for a walkthrough.
 */
export { definePlugin, type PluginDefinition, type PluginCommand, type CommandIo } from "./define-plugin.ts";
export { defineService, token, type ServiceDefinition, type ServiceToken, type ServiceScope, type ResolvedDeps, type Tokens } from "./define-service.ts";
export { UsageError, parseCommandArgs, type ServerClient, type ServerRequest } from "./command-line.ts";
export { defineRoutes, defineHook, defineGatedAction, type RoutesDeclaration, type HookDeclaration, type GatedActionDeclaration, type Needs } from "./declare.ts";
export { extensionPoint, contribute, contributeWith, ownerOf, type ExtensionPoint, type Contribution, type Contributed } from "./extension-points.ts";
export { hostPoints, type OwnerSource, type McpToolSpec, type McpScope, type DoctorCheck, type DoctorContext, type DoctorFinding, type DoctorStatus } from "./host-points.ts";
export type { ConsolePanel, ConsolePage, MetricSource, MetricFamily, MetricType, MetricSample } from "./plugin-point-shapes.ts";
export type { PluginContext, Database, DatabaseListener, EntityRow, HostInfo, HostCredential, Logger } from "./context.ts";
export {
  MusterError,
  defineErrors,
  hostErrors,
  isErrorCatalogue,
  catalogueDeclaration,
  catalogueErrors,
  errorCodePrefix,
  PUBLISHED_BEFORE_PREFIX_RULE,
  type CatalogueDeclaration,
  type PluginErrorOptions,
  type ErrorDetail,
  type ErrorDescriptor,
  type ErrorFactory,
  type ErrorCatalogue,
  type TemplateParams,
  type MusterErrorOptions,
} from "./errors.ts";
export { validationFailed, zodIssueDetails, summarizeDetails } from "./zod-issues.ts";
export { clip, constantTimeEqual, isCircular, retryWhileLocked } from "./helpers.ts";
export { BlockedAddressError, DEFAULT_BLOCKED_RANGES, createAddressPolicy, embeddedIPv4, guardedLookup, isCidr, type AddressPolicy } from "./address-policy.ts";
export type { PluginRouter, RouteSpec, RouteInput, RouteHandler, RouteAuth } from "./http.ts";
export type { EventBus, MusterEvent, MusterEvents, EventName, EventPattern, EventHandler } from "./events.ts";
export type { ApprovalGate, GatedAction, GateRequestOptions, GateRequestResult, GateBackend } from "./gate.ts";
export type { TextRedactor } from "./redaction.ts";
export type {
  GatewayClient,
  GatewayState,
  GatewayStatus,
  GatewayLinkStatus,
  GatewayHello,
  GatewayErrorShape,
  GatewayCallOptions,
  GatewayMethods,
  GatewayEvents,
  GatewayEventName,
  GatewayEventPayload,
  GatewaySessionRow,
  GatewayAgent,
  GatewayUsage,
  GatewayAgentParams,
  GatewayAgentAccepted,
  GatewayAgentFinal,
  GatewayChatEvent,
  GatewayAgentEvent,
  GatewayCronEvent,
} from "./gateway.ts";
export type { HttpMetrics, HttpMetricsSnapshot, HttpRequestSeries, HttpDurationSeries } from "./http-metrics.ts";
export { WORKSPACE_FILE_CHANGED, WORKSPACE_DOCUMENT_CHANGED, WORKSPACE_SKIPPED_DIRECTORIES, type WorkspacePaths, type WorkspaceWatch, type WorkspaceFileChange } from "./workspace.ts";
export type { Instances } from "./instances.ts";
export {
  defineStore,
  insertionOrder,
  type StoreDefinition,
  type EntityStore,
  type StoreOptions,
  type StoreFilter,
  type StoreOrder,
  type StoreField,
  type ListQuery,
  type NewRow,
  type Transition,
} from "./store-kit.ts";
export { preparedStatement, type PreparedStatement } from "./prepared-statement.ts";
export { atomically, whileLocked, type AtomicTx, type AtomicBody, type AtomicOptions, type AtomicStatement, type AtomicStatementStep } from "./atomic-step.ts";
export { SerialQueue } from "./serial-queue.ts";
export { IdFollower, type IdFollowerOptions } from "./id-follower.ts";
export { answerAfter } from "./answer-after.ts";
export { keptAnswer } from "./kept-answer.ts";
export { defineMigration, type Migration, type MigrationDb } from "./migrations.ts";
export { createRateLimiter, type RateLimiter, type RateLimitOptions, type RateLimits, type SharedRateLimiter } from "./rate-limit.ts";
export { hostTokens, configToken } from "./tokens.ts";
export { schemas } from "./schemas.ts";
export { z } from "zod";
export { defineEntity, p, raw, type InferEntity } from "@mikro-orm/core";

/** The plugin-API version this host implements; plugins declare a `host` range against it. */
export const PLUGIN_API_VERSION = "1.0.0";
