// The TypeScript executor (compatibility-tests/executor/): Steps in on stdin, Outcomes out on
// stdout, both length-prefixed, each Step made by a function the caller gives: call.ts over
// Connect for Node here, a page in Chromium for the browser client (clients/browser), which
// reuses this loop.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { type Outcome, OutcomeSchema, type Step, StepSchema } from "./gen/executor/acme/compat/executor/v1/executor_pb.js";
import { describe, log } from "./report.js";

/** Reads length-prefixed Steps from stdin until it ends, answering each in turn. */
export async function serve(call: (step: Step) => Promise<Outcome>): Promise<void> {
  let buffer = Buffer.alloc(0);
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    buffer = Buffer.concat([buffer, chunk]);
    while (buffer.length >= 4 && buffer.length >= 4 + buffer.readUInt32BE(0)) {
      const length = buffer.readUInt32BE(0);
      const step = fromBinary(StepSchema, buffer.subarray(4, 4 + length));
      buffer = buffer.subarray(4 + length);
      let outcome: Outcome;
      try {
        outcome = await call(step);
      } catch (err) {
        log(`crashed on ${step.service}/${step.method}: ${err instanceof Error ? err.stack : describe(err)}`);
        outcome = create(OutcomeSchema, { failure: `crashed: ${describe(err)}` });
      }
      const bytes = toBinary(OutcomeSchema, outcome);
      const prefix = Buffer.alloc(4);
      prefix.writeUInt32BE(bytes.length);
      await new Promise<void>((resolve, reject) =>
        process.stdout.write(Buffer.concat([prefix, bytes]), (e) => (e ? reject(e) : resolve())));
    }
  }
}

