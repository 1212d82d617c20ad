// Error details, decoded with the real types: google.rpc.Status (generated from the pinned
// google/rpc protos, like auth-node does), buf.validate.Violations from the protovalidate
// runtime package, google.rpc.RetryInfo. Connect's own ConnectError.findDetails would do
// the decoding for us; the contract is about the bytes on the wire, so we read them.
import { create, fromBinary } from "@bufbuild/protobuf";
import { base64Decode } from "@bufbuild/protobuf/wire";
import { anyIs, anyUnpack, AnySchema } from "@bufbuild/protobuf/wkt";
import type { ConnectError } from "@connectrpc/connect";
import { type Violation, ViolationsSchema } from "@bufbuild/protovalidate/gen/buf/validate/validate_pb.js";
import { type Status, StatusSchema } from "./gen/google/rpc/status_pb.js";
import { type RetryInfo, RetryInfoSchema } from "./gen/google/rpc/error_details_pb.js";
import { codeName, expect, fail } from "./check.js";

/**
 * The google.rpc.Status of a failed call. gRPC and gRPC-Web carry it in the
 * `grpc-status-details-bin` trailer, which we decode ourselves and check against the status
 * code. The Connect protocol has no such trailer: its JSON error body carries the same parts
 * (code, message, details as type + bytes), which we assemble into a Status.
 */
export function statusOf(err: ConnectError): Status {
  const bin = err.metadata.get("grpc-status-details-bin");
  if (bin !== null) {
    const status = fromBinary(StatusSchema, base64Decode(bin));
    expect(status.code === err.code,
      `grpc-status-details-bin says ${codeName(status.code)}, the call ended with ${codeName(err.code)}`);
    return status;
  }
  return create(StatusSchema, {
    code: err.code,
    message: err.rawMessage,
    details: err.details.map((d) =>
      "desc" in d
        ? fail("an outgoing error detail on a received error")
        : create(AnySchema, { typeUrl: `type.googleapis.com/${d.type}`, value: d.value })),
  });
}

/** The violations of the one buf.validate.Violations detail the contract promises. */
export function violationsOf(err: ConnectError): Violation[] {
  const status = statusOf(err);
  const found = status.details.filter((d) => anyIs(d, ViolationsSchema));
  expect(found.length === 1,
    `expected one buf.validate.Violations detail, got ${found.length} (details: ${status.details.map((d) => d.typeUrl).join(", ") || "none"})`);
  const violations = anyUnpack(found[0], ViolationsSchema);
  expect(violations !== undefined, "buf.validate.Violations detail did not decode");
  return violations.violations;
}

/** A violation as `path/rule_id`, the path being its field names joined by ".". */
export function violationKey(v: Violation): string {
  const path = (v.field?.elements ?? []).map((e) => e.fieldName).join(".");
  return `${path}/${v.ruleId}`;
}

/** Checks that every `path/rule_id` in `wanted` is among the error's violations. */
export function expectViolations(err: ConnectError, wanted: string[], what: string): void {
  expectViolationList(violationsOf(err), wanted, what);
}

export function expectViolationList(violations: Violation[], wanted: string[], what: string): void {
  const got = violations.map(violationKey);
  const missing = wanted.filter((w) => !got.includes(w));
  expect(missing.length === 0, `${what}: missing violations ${missing.join(", ")}; got [${got.join(", ")}]`);
}

/** Checks that a violation with rule id `ruleId` is present (message-level rules have no path). */
export function expectRuleId(err: ConnectError, ruleId: string, what: string): void {
  const got = violationsOf(err);
  expect(got.some((v) => v.ruleId === ruleId),
    `${what}: no violation with rule id ${ruleId}; got [${got.map(violationKey).join(", ")}]`);
}

/** The google.rpc.RetryInfo detail of a RESOURCE_EXHAUSTED error. */
export function retryInfoOf(err: ConnectError): RetryInfo {
  const status = statusOf(err);
  const found = status.details.find((d) => anyIs(d, RetryInfoSchema));
  expect(found !== undefined,
    `no google.rpc.RetryInfo detail (details: ${status.details.map((d) => d.typeUrl).join(", ") || "none"})`);
  const info = anyUnpack(found, RetryInfoSchema);
  expect(info !== undefined, "google.rpc.RetryInfo detail did not decode");
  return info;
}
