import type * as Budgets from "@usage-ingestion/budgets";
import type * as Service from "@usage-ingestion/shared";
import { QUEUEING_FAILURE_PREFIX as SERVICE_PREFIX } from "@usage-ingestion/shared";
import { describe, expect, expectTypeOf, it } from "vitest";
import type * as Client from "../src/contract.ts";
import { QUEUEING_FAILURE_PREFIX } from "../src/contract.ts";

// The client restates the service's contract so that its published declarations need no workspace package.
// Checked by the type-check of `npm test`: a field added, removed or retyped on either side fails the run.
describe("the contract the client restates", () => {
  it("is the service's own, type for type", () => {
    expectTypeOf<Client.Provider>().toEqualTypeOf<Service.Provider>();
    expectTypeOf<Client.UsageEntry>().toEqualTypeOf<Service.UsageEntry>();
    expectTypeOf<Client.TokensMetrics>().toEqualTypeOf<Service.TokensMetrics>();
    expectTypeOf<Client.ImagesMetrics>().toEqualTypeOf<Service.ImagesMetrics>();
    expectTypeOf<Client.AudioSecondsMetrics>().toEqualTypeOf<Service.AudioSecondsMetrics>();
    expectTypeOf<Client.VideoSecondsMetrics>().toEqualTypeOf<Service.VideoSecondsMetrics>();
    expectTypeOf<Client.RequestsMetrics>().toEqualTypeOf<Service.RequestsMetrics>();
    expectTypeOf<Client.CustomMetrics>().toEqualTypeOf<Service.CustomMetrics>();
    expectTypeOf<Client.TransactionContext>().toEqualTypeOf<Service.Context>();
    expectTypeOf<Client.Transaction>().toEqualTypeOf<Service.Transaction>();
    expectTypeOf<Client.FieldErrorCode>().toEqualTypeOf<Service.FieldErrorCode>();
    expectTypeOf<Client.FieldError>().toEqualTypeOf<Service.FieldError>();
    expectTypeOf<Client.TransactionResult>().toEqualTypeOf<Service.TransactionResult>();
    expectTypeOf<Client.ErrorObject>().toEqualTypeOf<Service.ErrorObject>();
    expectTypeOf<Client.BudgetScope>().toEqualTypeOf<Budgets.BudgetScope>();
    expectTypeOf<Client.BudgetPeriod>().toEqualTypeOf<Budgets.BudgetPeriod>();
    expectTypeOf<Client.BudgetStatus>().toEqualTypeOf<Budgets.BudgetStatus>();
  });

  it("retries on the service's queueing-failure text", () => {
    expectTypeOf<typeof QUEUEING_FAILURE_PREFIX>().toEqualTypeOf<typeof SERVICE_PREFIX>();
    expect(QUEUEING_FAILURE_PREFIX).toBe(SERVICE_PREFIX);
  });
});
