// One Step made as a call (compatibility-tests/executor/): with the SDK's service descriptors
// and a Connect client over the Step's protocol, requests decoded and responses encoded by the
// SDK's own types. It judges nothing; the harness does. The transports are the caller's:
// Connect for Node in this client (transport.ts), Connect for Web in a page (clients/browser),
// so this file uses nothing but what both a browser and Node have.
import { fromBinary, toBinary, type DescMethod, type DescService } from "@bufbuild/protobuf";
import { base64Decode } from "@bufbuild/protobuf/wire";
import { AnySchema } from "@bufbuild/protobuf/wkt";
import { create } from "@bufbuild/protobuf";
import { ConnectError, createClient, type Transport } from "@connectrpc/connect";
import { AuthService } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { PersonService } from "@acme/contracts/acme/person/v1/person_service_pb";
import { type Outcome, OutcomeSchema, type Step, Step_End } from "./gen/executor/acme/compat/executor/v1/executor_pb.js";
import { StatusSchema } from "./gen/google/rpc/status_pb.js";
import { RequestQueue } from "./queue.js";

const services: DescService[] = [PersonService, AuthService];

/** Where calls go: the protocols a client library has, and its transport to a server. */
export interface Transports {
  /** The library's name, for a failure that names what it lacks. */
  readonly name: string;
  readonly protocols: readonly string[];
  /** One transport per server and protocol for the executor's life; throws for an unknown server. */
  get(server: string, protocol: string): Transport;
}

/** What the server sent, in order, and a way to wait for the next message. */
class Received {
  readonly messages: Uint8Array[] = [];
  private taken = 0;
  private wake: (() => void) | undefined;
  ended = false;

  add(message: Uint8Array): void {
    this.messages.push(message);
    this.wake?.();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  /** Waits for one more message than taken so far; false once the call ended without one. */
  async next(): Promise<boolean> {
    while (this.messages.length <= this.taken && !this.ended) {
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
    if (this.messages.length <= this.taken) return false;
    this.taken++;
    return true;
  }
}

export async function call(step: Step, transports: Transports): Promise<Outcome> {
  if (!transports.protocols.includes(step.protocol)) {
    return create(OutcomeSchema, { failure: `${transports.name} has no protocol ${step.protocol}` });
  }
  const service = services.find((s) => s.typeName === step.service);
  const method: DescMethod | undefined = service?.methods.find((m) => m.name === step.method);
  if (service === undefined || method === undefined) {
    return create(OutcomeSchema, { failure: `the SDK has no method ${step.service}/${step.method}` });
  }
  // Generic over the four call shapes: the client's method for this one, by its local name.
  const client = createClient(service, transports.get(step.server, step.protocol)) as unknown as
    Record<string, (input: unknown, options: unknown) => unknown>;
  const invoke = client[method.localName]!;
  const requests = step.requests.map((bytes) => fromBinary(method.input, bytes));
  const abort = new AbortController();
  const options = {
    signal: abort.signal,
    timeoutMs: step.timeoutMs,
    headers: {
      ...(step.authorization === undefined ? {} : { authorization: step.authorization }),
      ...(step.traceparent === undefined ? {} : { traceparent: step.traceparent }),
    },
  };
  const received = new Received();
  const queue = new RequestQueue<unknown>();
  const keep = (m: unknown) => received.add(toBinary(method.output, m as never));
  const started = performance.now();

  const done: Promise<ConnectError | undefined> = (async () => {
    switch (method.methodKind) {
      case "unary":
        keep(await invoke(requests[0], options));
        break;
      case "server_streaming":
        for await (const m of invoke(requests[0], options) as AsyncIterable<unknown>) keep(m);
        break;
      case "client_streaming":
        keep(await invoke(queue, options));
        break;
      case "bidi_streaming":
        for await (const m of invoke(queue, options) as AsyncIterable<unknown>) keep(m);
        break;
    }
    return undefined;
  })().then(
    (ok) => ok,
    (err) => ConnectError.from(err),
  ).finally(() => received.end());

  if (method.methodKind === "client_streaming" || method.methodKind === "bidi_streaming") {
    for (const request of requests) {
      queue.push(request);
      if (step.exchange && !(await received.next())) break;
    }
    if (step.end === Step_End.CANCEL) {
      await new Promise((resolve) => setTimeout(resolve, step.cancelAfterMs));
      abort.abort();
    } else if (step.end !== Step_End.OPEN) {
      queue.end();
    }
  }
  const err = await done;
  queue.end();
  return create(OutcomeSchema, {
    responses: received.messages,
    code: err?.code ?? 0,
    message: err?.rawMessage ?? "",
    statusDetails: err === undefined ? new Uint8Array() : statusDetails(err),
    elapsedMs: BigInt(Math.round(performance.now() - started)),
  });
}

/**
 * The google.rpc.Status the server sent. gRPC and gRPC-Web carry it in the
 * grpc-status-details-bin trailer, handed back as received; the Connect protocol's JSON error
 * body carries the same parts (code, message, details as type + bytes), assembled into one.
 */
function statusDetails(err: ConnectError): Uint8Array {
  const bin = err.metadata.get("grpc-status-details-bin");
  if (bin !== null) return base64Decode(bin);
  if (err.details.length === 0) return new Uint8Array();
  return toBinary(StatusSchema, create(StatusSchema, {
    code: err.code,
    message: err.rawMessage,
    details: err.details.flatMap((d) =>
      "desc" in d ? [] : [create(AnySchema, { typeUrl: `type.googleapis.com/${d.type}`, value: d.value })]),
  }));
}
