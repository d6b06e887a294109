import { defineMigration } from "@muster/plugin";

export const migrations = [
  defineMigration({
    name: "001-gateway-approvals",
    up: [
      `CREATE TABLE gateway_approvals_requests (
        gatewayId TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        approvalId TEXT,
        state TEXT NOT NULL CHECK (state IN ('open', 'closed')),
        createdAt TEXT NOT NULL
      )`,
      "CREATE INDEX gateway_approvals_requests_approval ON gateway_approvals_requests (approvalId)",
      "CREATE INDEX gateway_approvals_requests_open ON gateway_approvals_requests (state, kind)",
    ],
  }),
];
