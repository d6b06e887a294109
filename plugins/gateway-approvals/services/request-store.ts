import { defineStore, type Database, type EntityStore } from "@muster/plugin";
import { GatewayRequest, type GatewayRequestRow } from "../entities/gateway-request.ts";

const requests = defineStore(GatewayRequest, { key: "gatewayId" });

/**
 * `gateway_approvals_requests` over the store kit, on SQLite and PostgreSQL. Claiming a
 * gateway id is one conditional insert, so of any number of deliveries of the same request
 * exactly one goes on to create the approval.
 */
export class RequestStore {
  private readonly rows: EntityStore<typeof GatewayRequest, "gatewayId">;
  constructor(db: () => Database) {
    this.rows = requests.on(db);
  }

  /**
   * Whether this call claimed the id (false: it was seen before). One insert that does
   * nothing on a taken id (`ON CONFLICT DO NOTHING`, through the query builder on any
   * engine) is the conditional step: of concurrent deliveries exactly one inserts.
   */
  async claim(gatewayId: string, kind: string, now: string): Promise<boolean> {
    const { affectedRows } = await this.rows.qb().insert({ gatewayId, kind, approvalId: null, state: "open", createdAt: now }).onConflict("gatewayId").ignore().execute("run");
    return affectedRows === 1;
  }

  async attach(gatewayId: string, approvalId: string): Promise<void> {
    await this.rows.update(gatewayId, { approvalId });
  }

  /** Forgets a claim whose approval could not be created, so a later delivery can try again. */
  async release(gatewayId: string): Promise<void> {
    await this.rows.qb().delete().where({ gatewayId, approvalId: null }).execute("run");
  }

  /** Marks it settled in the gateway; true when this call did it. */
  async close(gatewayId: string): Promise<boolean> {
    return (await this.rows.transition(gatewayId, { from: { state: "open" }, set: { state: "closed" } })) !== null;
  }

  async get(gatewayId: string): Promise<GatewayRequestRow | undefined> {
    return (await this.rows.get(gatewayId)) ?? undefined;
  }

  async byApproval(approvalId: string): Promise<GatewayRequestRow | undefined> {
    return (await this.rows.find({ approvalId })) ?? undefined;
  }

  open(kind: string): Promise<GatewayRequestRow[]> {
    return this.rows.list({ where: { kind, state: "open" } });
  }

  openCount(): Promise<number> {
    return this.rows.count({ state: "open" });
  }
}
