// The composition root: opens the database and the signing key, wires the rules to the
// service implementations. Transport-free, so tests can put it behind the in-memory
// router transport or the real server alike.
import { create } from "@bufbuild/protobuf";
import type { ConnectRouter, HandlerContext, Interceptor, ServiceImpl } from "@connectrpc/connect";
import type { Validator } from "@bufbuild/protovalidate";
import { type AuthService, CreateUserRequestSchema } from "@acme/contracts/acme/auth/v1/auth_service_pb";
import { Role } from "@acme/contracts/acme/auth/v1/user_pb";
import { Accounts } from "./accounts.js";
import { authService } from "./auth-service.js";
import type { Config } from "./config.js";
import { HealthState, healthService } from "./health.js";
import { interceptors } from "./interceptors.js";
import type { Logger } from "./log.js";
import { LoginLimiter } from "./login-limiter.js";
import { createMetrics, type Metrics } from "./metrics.js";
import { PasswordHasher } from "./passwords.js";
import { protocolErrors } from "./protocol-errors.js";
import { DescriptorIndex, reflectionService, reflectionServiceAlpha } from "./reflection.js";
import { routes, servedServices } from "./routes.js";
import { loadOrCreateSigningKey, type SigningKey } from "./signing-key.js";
import { openStores, type Stores } from "./store.js";
import { TokenService } from "./tokens.js";
import { createTracing, type Tracing } from "./tracing.js";
import { assertValid, createRequestValidator } from "./validation.js";

export interface App {
  routes: (router: ConnectRouter) => void;
  /** For connect-es's router: protocol-errors.ts's marker first, then callInterceptors. */
  interceptors: Interceptor[];
  /** What every call runs through, outermost first (interceptors.ts). */
  callInterceptors: Interceptor[];
  /** The router's requestGate: answers undecodable requests in the contract's terms. */
  requestGate: (context: HandlerContext) => void;
  validator: Validator;
  auth: ServiceImpl<typeof AuthService>;
  health: HealthState;
  signingKey: SigningKey;
  metrics: Metrics;
  tracing: Tracing;
  stores: Stores;
  close(): Promise<void>;
}

export async function createApp(config: Config, log: Logger): Promise<App> {
  const validator = createRequestValidator();
  const metrics = createMetrics(config.metrics.enabled);
  const tracing = createTracing(config.tracing, metrics, log);
  const stores = await openStores(config, log);
  const store = stores.users;
  try {
    const signingKey = await loadOrCreateSigningKey(stores.signingKey, log);
    const tokens = new TokenService(signingKey, {
      issuer: config.issuer,
      audience: config.audience,
      ttlSeconds: config.tokenTtlSeconds,
      clockSkewSeconds: config.clockSkewSeconds,
    });
    const accounts = new Accounts(
      store,
      await PasswordHasher.create(config.scryptLogN),
      tokens,
      new LoginLimiter(config.loginLimits, stores.loginFailures),
      log,
      metrics,
      tracing,
    );
    if ((await store.count()) === 0 && config.adminPassword !== undefined) {
      // The configured admin must obey the same rules as any user created over the API.
      const request = create(CreateUserRequestSchema, {
        username: config.adminUsername,
        password: config.adminPassword,
        roles: [Role.ADMIN, Role.USER],
      });
      try {
        assertValid(validator, CreateUserRequestSchema, request);
      } catch (err) {
        throw new Error(`AUTH_ADMIN_USERNAME / AUTH_ADMIN_PASSWORD: ${(err as Error).message}`);
      }
    }
    await accounts.bootstrapAdmin(config.adminUsername, config.adminPassword);

    const health = new HealthState(servedServices.map((s) => s.typeName));
    const index = new DescriptorIndex(servedServices);
    const auth = authService(accounts);
    const protocol = protocolErrors(log);
    const callInterceptors = interceptors(log, validator, metrics, tracing);
    return {
      routes: routes({
        auth,
        health: healthService(health),
        reflection: reflectionService(index),
        reflectionAlpha: reflectionServiceAlpha(index),
      }),
      interceptors: [protocol.decoded, ...callInterceptors],
      callInterceptors,
      requestGate: protocol.requestGate,
      validator,
      auth,
      health,
      signingKey,
      metrics,
      tracing,
      stores,
      // The spans of the last calls go out before the process ends (bounded by the export timeout).
      close: async () => {
        await tracing.close();
        await stores.close();
      },
    };
  } catch (err) {
    await tracing.close();
    await stores.close();
    throw err;
  }
}
