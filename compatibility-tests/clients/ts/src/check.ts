// Checks that fail a feature with a precise detail. A Failure is an expected kind of
// failure (the service or SDK did something else than the contract says); anything else
// thrown inside a feature is reported as an unexpected error.
import { Code, ConnectError } from "@connectrpc/connect";
import { type DescMessage, type MessageShape, equals, toJsonString } from "@bufbuild/protobuf";

export class Failure extends Error {}

export function fail(detail: string): never {
  throw new Failure(detail);
}

export function expect(condition: boolean, detail: string): asserts condition {
  if (!condition) fail(detail);
}

/** Message equality with protobuf-es `equals` (set fields compared by value, unknown fields ignored). */
export function expectMessage<D extends DescMessage>(schema: D, got: MessageShape<D>, want: MessageShape<D>, what: string): void {
  if (!equals(schema, got, want)) {
    fail(`${what}: got ${toJsonString(schema, got)}, want ${toJsonString(schema, want)}`);
  }
}

export function codeName(code: Code | number): string {
  // Code.InvalidArgument → INVALID_ARGUMENT, the gRPC spelling the contract uses.
  const name = Code[code];
  return name ? name.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase() : `code ${code}`;
}

/** Awaits a call that must fail with `code`; returns its ConnectError for further checks. */
export async function rejects(call: Promise<unknown>, code: Code, what: string): Promise<ConnectError> {
  try {
    await call;
  } catch (err) {
    const error = ConnectError.from(err);
    expect(error.code === code, `${what}: expected ${codeName(code)}, got ${codeName(error.code)} (${error.rawMessage})`);
    return error;
  }
  fail(`${what}: expected ${codeName(code)}, got OK`);
}

/** Awaits a call that must succeed; a ConnectError becomes a Failure naming the call. */
export async function ok<T>(call: Promise<T>, what: string): Promise<T> {
  try {
    return await call;
  } catch (err) {
    const error = ConnectError.from(err);
    fail(`${what}: expected OK, got ${codeName(error.code)} (${error.rawMessage})`);
  }
}
