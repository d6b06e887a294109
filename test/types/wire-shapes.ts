// Type test (checked by `npm run typecheck`, never run): each stored record's wire schema
// (http/schemas.ts, which the OpenAPI document and response checks use) has exactly the
// fields and types of the record the service derives from the table's entity, so a column
// added to an entity and not to its schema, or the other way round, fails type checking.
import type { z } from "@muster/plugin";
import type { approvalSchema, approvalSummarySchema } from "../../plugins/approvals/http/schemas.ts";
import type { ApprovalRecord, ApprovalSummary } from "../../plugins/approvals/services/approval-record.ts";
import type { feedbackEntrySchema } from "../../plugins/feedback/http/schemas.ts";
import type { FeedbackRecord } from "../../plugins/feedback/services/feedback-service.ts";
import type { secretSchema } from "../../plugins/vault/http/schemas.ts";
import type { SecretMetadata } from "../../plugins/vault/services/secret-store.ts";
import type { epicSchema, projectSchema, sprintSchema, storySchema, taskSchema } from "../../plugins/work/http/schemas.ts";
import type { WorkRecord } from "../../plugins/work/services/kinds.ts";
import type { activitySchema } from "../../plugins/activities/http/schemas.ts";
import type { ActivityRecord } from "../../plugins/activities/services/activity-service.ts";
import type { notificationSchema } from "../../plugins/notifications/http/schemas.ts";
import type { NotificationRecord } from "../../plugins/notifications/services/notification-service.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Same keys, each with the same type (a schema's `unknown` field infers as optional). */
type SameShape<A, B> = Equal<keyof A, keyof B> extends true ? Equal<{ [K in keyof A]-?: A[K] }, { [K in keyof B]-?: B[K] }> : false;
const same = <A, B>(ok: SameShape<A, B>) => ok;

same<z.output<typeof approvalSchema>, ApprovalRecord>(true);
same<z.output<typeof approvalSummarySchema>, ApprovalSummary>(true);
same<z.output<typeof feedbackEntrySchema>, FeedbackRecord>(true);
same<z.output<typeof secretSchema>, SecretMetadata>(true);
same<z.output<typeof taskSchema>, WorkRecord<"task">>(true);
same<z.output<typeof sprintSchema>, WorkRecord<"sprint">>(true);
same<z.output<typeof epicSchema>, WorkRecord<"epic">>(true);
same<z.output<typeof storySchema>, WorkRecord<"story">>(true);
same<z.output<typeof projectSchema>, WorkRecord<"project">>(true);
same<z.output<typeof activitySchema>, ActivityRecord>(true);
same<z.output<typeof notificationSchema>, NotificationRecord>(true);
// @ts-expect-error: a record with a column its schema lacks is caught
same<z.output<typeof secretSchema>, SecretMetadata & { ciphertext: string }>(true);
