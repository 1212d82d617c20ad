// A Failure is an expected kind of failure (an SDK did something else than the golden vectors
// say); anything else thrown inside a golden feature is reported as an unexpected error.
export class Failure extends Error {}

export function fail(detail: string): never {
  throw new Failure(detail);
}
