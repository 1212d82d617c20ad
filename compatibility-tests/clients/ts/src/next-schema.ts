// The "newer schema" for the unknown-fields features: COMPAT_NEXT_DESCRIPTORS names a binary
// FileDescriptorSet (imports included) of proto/ plus one field each in Person and
// LoginRequest. A registry built from it gives service and message descriptors that Connect
// takes like generated ones, so we get a real client of the newer schema.
import { readFileSync } from "node:fs";
import { type DescMessage, type DescService, type FileRegistry, type Message, createFileRegistry, fromBinary } from "@bufbuild/protobuf";
import { type CallOptions, createClient, type Transport } from "@connectrpc/connect";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { fail } from "./check.js";

let cached: FileRegistry | undefined;

export function nextRegistry(path: string): FileRegistry {
  if (!path) fail("COMPAT_NEXT_DESCRIPTORS is not set");
  cached ??= createFileRegistry(fromBinary(FileDescriptorSetSchema, readFileSync(path)));
  return cached;
}

export function nextService(path: string, typeName: string): DescService {
  return nextRegistry(path).getService(typeName) ?? fail(`${typeName} is not in the newer schema`);
}

export function nextMessage(path: string, typeName: string): DescMessage {
  return nextRegistry(path).getMessage(typeName) ?? fail(`${typeName} is not in the newer schema`);
}

/** A unary method of a client made from a runtime descriptor: dynamic messages in and out. */
export type DynamicUnary = (request: Message, options?: CallOptions) => Promise<Message & Record<string, unknown>>;

/**
 * A Connect client of a service of the newer schema. createClient builds it from the
 * descriptor at run time; TypeScript cannot know its method names, so we say what they are.
 */
export function nextClient(path: string, typeName: string, transport: Transport): Record<string, DynamicUnary> {
  return createClient(nextService(path, typeName), transport) as unknown as Record<string, DynamicUnary>;
}
