// The routes: which service implementation answers which protobuf service. Nothing else —
// the server start-up (server.ts) and the in-memory test transport both take these.
import type { ConnectRouter, ServiceImpl } from "@connectrpc/connect";
import { AuthService } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { Health } from "./gen/grpc/health/v1/health_pb.js";
import { ServerReflection } from "./gen/grpc/reflection/v1/reflection_pb.js";
import { ServerReflection as ServerReflectionAlpha } from "./gen/grpc/reflection/v1alpha/reflection_pb.js";

/** Every service the server answers, as listed by reflection and health. */
export const servedServices = [AuthService, Health, ServerReflection, ServerReflectionAlpha];

export interface ServiceImpls {
  auth: ServiceImpl<typeof AuthService>;
  health: ServiceImpl<typeof Health>;
  reflection: ServiceImpl<typeof ServerReflection>;
  reflectionAlpha: ServiceImpl<typeof ServerReflectionAlpha>;
}

export function routes(impls: ServiceImpls): (router: ConnectRouter) => void {
  return (router) => {
    router.service(AuthService, impls.auth);
    router.service(Health, impls.health);
    router.service(ServerReflection, impls.reflection);
    router.service(ServerReflectionAlpha, impls.reflectionAlpha);
  };
}
