import type { Database } from "@muster/plugin";
import { GatewayRequest, type GatewayRequestRow } from "../entities/gateway-request.ts";

/**
 * `gateway_approvals_requests`. Claiming a gateway id is one conditional insert, so of any
 * number of deliveries of the same request exactly one goes on to create the approval.
 */
export class RequestStore {
  private readonly db: () => Database;
  private claimStatement?: ReturnType<Database["sql"]["prepare"]>;
  constructor(db: () => Database) {
    this.db = db;
  }

  private qb() {
    return this.db().em().createQueryBuilder(GatewayRequest);
  }

  /** Whether this call claimed the id (false: it was seen before). */
  claim(gatewayId: string, kind: string, now: string): boolean {
    this.claimStatement ??= this.db().sql.prepare(
      `INSERT INTO gateway_approvals_requests (gatewayId, kind, approvalId, state, createdAt) VALUES (@gatewayId, @kind, NULL, 'open', @now)
       ON CONFLICT (gatewayId) DO NOTHING`,
    );
    return this.claimStatement.run({ gatewayId, kind, now }).changes === 1;
  }

  async attach(gatewayId: string, approvalId: string): Promise<void> {
    await this.qb().update({ approvalId }).where({ gatewayId }).execute("run");
  }

  /** Forgets a claim whose approval could not be created, so a later delivery can try again. */
  async release(gatewayId: string): Promise<void> {
    await this.qb().delete().where({ gatewayId, approvalId: null }).execute("run");
  }

  /** Marks it settled in the gateway; true when this call did it. */
  async close(gatewayId: string): Promise<boolean> {
    const { affectedRows } = await this.qb().update({ state: "closed" }).where({ gatewayId, state: "open" }).execute("run");
    return affectedRows === 1;
  }

  async get(gatewayId: string): Promise<GatewayRequestRow | undefined> {
    return (await this.qb().select("*").where({ gatewayId }).execute<GatewayRequestRow | null>("get")) ?? undefined;
  }

  async byApproval(approvalId: string): Promise<GatewayRequestRow | undefined> {
    return (await this.qb().select("*").where({ approvalId }).execute<GatewayRequestRow | null>("get")) ?? undefined;
  }

  open(kind: string): Promise<GatewayRequestRow[]> {
    return this.qb().select("*").where({ kind, state: "open" }).execute<GatewayRequestRow[]>("all", false);
  }

  openCount(): Promise<number> {
    return this.db().em().count(GatewayRequest, { state: "open" });
  }
}
