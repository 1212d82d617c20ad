// gRPC server reflection, v1 and v1alpha (grpcurl and older tools ask for either), serving
// the real file descriptors of the served services and everything they import.
import {
  create,
  type DescExtension,
  type DescFile,
  type DescMessage,
  type DescService,
  fromBinary,
  type MessageInitShape,
  toBinary,
} from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { Code, type ServiceImpl } from "@connectrpc/connect";
import {
  ServerReflection,
  type ServerReflectionRequest,
  ServerReflectionRequestSchema,
  ServerReflectionResponseSchema,
} from "./gen/grpc/reflection/v1/reflection_pb.js";
import {
  ServerReflection as ServerReflectionAlpha,
  ServerReflectionRequestSchema as AlphaRequestSchema,
  ServerReflectionResponseSchema as AlphaResponseSchema,
} from "./gen/grpc/reflection/v1alpha/reflection_pb.js";

type Answer = MessageInitShape<typeof ServerReflectionResponseSchema>["messageResponse"];

/** Indexes the files of services and their imports, by file name and by symbol. */
export class DescriptorIndex {
  readonly serviceNames: string[];
  private readonly files = new Map<string, DescFile>();
  private readonly symbols = new Map<string, DescFile>();
  private readonly extensions: DescExtension[] = [];

  constructor(services: DescService[]) {
    this.serviceNames = services.map((s) => s.typeName);
    for (const service of services) this.addFile(service.file);
  }

  fileByName(name: string): DescFile | undefined {
    return this.files.get(name);
  }

  /** The file declaring a message, enum, service, method, field or extension name. */
  fileBySymbol(symbol: string): DescFile | undefined {
    return this.symbols.get(symbol) ?? this.symbols.get(symbol.slice(0, Math.max(0, symbol.lastIndexOf("."))));
  }

  extensionsOf(typeName: string): DescExtension[] {
    return this.extensions.filter((ext) => ext.extendee.typeName === typeName);
  }

  hasMessage(typeName: string): boolean {
    return this.symbols.has(typeName);
  }

  /** file itself first, then every file it imports, directly or not. */
  withImports(file: DescFile): DescFile[] {
    const seen = new Map<string, DescFile>();
    const visit = (f: DescFile) => {
      if (seen.has(f.proto.name)) return;
      seen.set(f.proto.name, f);
      f.dependencies.forEach(visit);
    };
    visit(file);
    return [...seen.values()];
  }

  private addFile(file: DescFile): void {
    if (this.files.has(file.proto.name)) return;
    this.files.set(file.proto.name, file);
    const addMessage = (message: DescMessage) => {
      this.symbols.set(message.typeName, file);
      message.nestedMessages.forEach(addMessage);
      message.nestedEnums.forEach((e) => this.symbols.set(e.typeName, file));
      message.nestedExtensions.forEach((x) => this.addExtension(x));
    };
    file.messages.forEach(addMessage);
    file.enums.forEach((e) => this.symbols.set(e.typeName, file));
    file.services.forEach((s) => this.symbols.set(s.typeName, file));
    file.extensions.forEach((x) => this.addExtension(x));
    file.dependencies.forEach((dep) => this.addFile(dep));
  }

  private addExtension(ext: DescExtension): void {
    this.symbols.set(ext.typeName, ext.file);
    this.extensions.push(ext);
  }
}

export function answer(index: DescriptorIndex, req: ServerReflectionRequest): Answer {
  const notFound = (what: string): Answer => ({
    case: "errorResponse",
    value: { errorCode: Code.NotFound, errorMessage: `${what} not found` },
  });
  const files = (file: DescFile | undefined, what: string): Answer =>
    file
      ? {
          case: "fileDescriptorResponse",
          value: { fileDescriptorProto: index.withImports(file).map((f) => toBinary(FileDescriptorProtoSchema, f.proto)) },
        }
      : notFound(what);
  const r = req.messageRequest;
  switch (r.case) {
    case "listServices":
      return { case: "listServicesResponse", value: { service: index.serviceNames.map((name) => ({ name })) } };
    case "fileByFilename":
      return files(index.fileByName(r.value), `file "${r.value}"`);
    case "fileContainingSymbol":
      return files(index.fileBySymbol(r.value), `symbol "${r.value}"`);
    case "fileContainingExtension": {
      const ext = index.extensionsOf(r.value.containingType).find((x) => x.number === r.value.extensionNumber);
      return files(ext?.file, `extension ${r.value.extensionNumber} of "${r.value.containingType}"`);
    }
    case "allExtensionNumbersOfType":
      if (!index.hasMessage(r.value)) return notFound(`type "${r.value}"`);
      return {
        case: "allExtensionNumbersResponse",
        value: { baseTypeName: r.value, extensionNumber: index.extensionsOf(r.value).map((x) => x.number) },
      };
    default:
      return { case: "errorResponse", value: { errorCode: Code.InvalidArgument, errorMessage: "empty reflection request" } };
  }
}

export function reflectionService(index: DescriptorIndex): ServiceImpl<typeof ServerReflection> {
  return {
    async *serverReflectionInfo(requests) {
      for await (const req of requests) {
        yield { validHost: req.host, originalRequest: req, messageResponse: answer(index, req) };
      }
    },
  };
}

// v1alpha has the same messages under another package, field for field, so its requests
// and responses convert losslessly through the wire format.
export function reflectionServiceAlpha(index: DescriptorIndex): ServiceImpl<typeof ServerReflectionAlpha> {
  const v1 = reflectionService(index);
  return {
    async *serverReflectionInfo(requests, ctx) {
      async function* asV1() {
        for await (const req of requests) yield fromBinary(ServerReflectionRequestSchema, toBinary(AlphaRequestSchema, req));
      }
      for await (const res of v1.serverReflectionInfo(asV1(), ctx)) {
        yield fromBinary(AlphaResponseSchema, toBinary(ServerReflectionResponseSchema, create(ServerReflectionResponseSchema, res)));
      }
    },
  };
}
