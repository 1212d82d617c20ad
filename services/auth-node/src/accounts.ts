// The auth service's rules, in plain terms: who may log in, what a token proves, how users
// are created and disabled. Failures are ConnectErrors with the precise code; nothing here
// knows about HTTP, protobuf messages or which protocol a call came in on.
import { Code, ConnectError } from "@connectrpc/connect";
import type { Logger } from "./log.js";
import type { LoginLimiter } from "./login-limiter.js";
import type { Metrics } from "./metrics.js";
import type { PasswordHasher } from "./passwords.js";
import type { Tracing } from "./tracing.js";
import { InvalidTokenError, type TokenClaims, type TokenService } from "./tokens.js";
import type { RoleName, UserRecord, UserStore } from "./user-store.js";
import { RetryInfoSchema } from "./gen/google/rpc/error_details_pb.js";

// One message for unknown user, wrong password and disabled user: the caller learns nothing.
export const LOGIN_FAILED = "invalid username or password";
export const TOKEN_INVALID = "token is not valid";
export const TOKEN_EXPIRED = "token expired";

export interface IssuedToken {
  token: string;
  expiresAt: Date;
}

export class Accounts {
  constructor(
    private readonly store: UserStore,
    private readonly hasher: PasswordHasher,
    private readonly tokens: TokenService,
    private readonly limiter: LoginLimiter,
    private readonly log: Logger,
    private readonly metrics: Metrics,
    /** Spans for the work inside a call: the password hash, the token check, the store. */
    private readonly tracing: Tracing,
  ) {}

  async login(username: string, password: string, clientAddress: string): Promise<IssuedToken> {
    const attempt = await this.limiter.attempt(username, clientAddress);
    if (attempt.retryAfterSeconds > 0) {
      const retryAfter = attempt.retryAfterSeconds;
      if (attempt.refusal === "busy") {
        this.log.warn("login refused: too many attempts at once", { username, clientAddress, retryAfterSeconds: retryAfter });
        this.metrics.login("busy");
        throw refusedAtOnce(retryAfter, `too many logins at once for this user or address; retry in ${retryAfter} s`);
      }
      this.log.warn("login refused: too many failures", { username, clientAddress, retryAfterSeconds: retryAfter });
      this.metrics.login("throttled");
      throw refusedAtOnce(retryAfter, `too many failed logins; retry in ${retryAfter} s`);
    }
    // Decided exactly once, whatever happens: attempts at the same counters wait for it.
    let user: UserRecord | undefined;
    let passwordOk: boolean;
    try {
      user = await this.tracing.child("store.find", () => this.store.find(username));
      // Always one key derivation, against a dummy hash when the user is unknown, and the
      // disabled check only after it: every failing path costs the same.
      passwordOk = await this.tracing.child("password.verify", () => this.hasher.verify(password, user?.passwordHash));
    } catch (err) {
      attempt.abandoned(); // nothing was judged: the store or the hash failed, not the caller
      throw err;
    }
    if (!user || !passwordOk || user.disabled) {
      await attempt.failed();
      const reason = !user ? "unknown user" : !passwordOk ? "wrong password" : "user disabled";
      this.log.info("login failed", { username, clientAddress, reason });
      this.metrics.login("failed");
      throw new ConnectError(LOGIN_FAILED, Code.Unauthenticated);
    }
    await attempt.succeeded();
    const issued = await this.tokens.issue(user.username, user.roles);
    this.log.info("login succeeded", { username, clientAddress });
    this.metrics.login("success");
    return issued;
  }

  /** What a token proves, if it is valid now and its user still exists and is enabled. */
  async validate(token: string): Promise<TokenClaims> {
    let claims: TokenClaims;
    try {
      claims = await this.tracing.child("token.verify", () => this.tokens.verify(token));
    } catch (err) {
      if (!(err instanceof InvalidTokenError)) throw err;
      this.log.debug("token refused", { reason: err.message });
      this.metrics.token(err.expired ? "expired" : "invalid");
      throw new ConnectError(err.expired ? TOKEN_EXPIRED : TOKEN_INVALID, Code.Unauthenticated);
    }
    const user = await this.tracing.child("store.find", () => this.store.find(claims.subject));
    if (!user || user.disabled) {
      this.log.debug("token refused", { reason: user ? "user disabled" : "user unknown", subject: claims.subject });
      this.metrics.token(user ? "user_disabled" : "user_unknown");
      throw new ConnectError(TOKEN_INVALID, Code.Unauthenticated);
    }
    this.metrics.token("valid");
    return claims;
  }

  async createUser(username: string, password: string, roles: RoleName[]): Promise<UserRecord> {
    const user: UserRecord = {
      username,
      passwordHash: await this.hasher.hash(password),
      roles,
      disabled: false,
      createdAt: new Date(),
    };
    if (!(await this.tracing.child("store.insert", () => this.store.insert(user)))) {
      throw new ConnectError(`user "${username}" already exists`, Code.AlreadyExists);
    }
    this.log.info("user created", { username, roles });
    return user;
  }

  async disableUser(username: string): Promise<UserRecord> {
    const user = await this.tracing.child("store.disable", () => this.store.disable(username));
    if (!user) throw new ConnectError(`user "${username}" not found`, Code.NotFound);
    this.log.info("user disabled", { username });
    return user;
  }

  listUsers(): Promise<UserRecord[]> {
    return this.tracing.child("store.list", () => this.store.list());
  }

  /** First start: create the configured admin when there are no users at all. */
  async bootstrapAdmin(username: string, password: string | undefined): Promise<void> {
    if ((await this.store.count()) > 0) return;
    if (!password || password.length < 12) {
      throw new Error("the user database is empty: set AUTH_ADMIN_PASSWORD (12 characters or more) to create the first admin");
    }
    try {
      await this.createUser(username, password, ["ROLE_ADMIN", "ROLE_USER"]);
    } catch (err) {
      // Replicas starting together on one empty database all find it empty; one insert wins
      // and the others take its admin — made from the same configuration — and start.
      if (err instanceof ConnectError && err.code === Code.AlreadyExists) {
        this.log.info("the first admin was created by another replica", { username });
        return;
      }
      throw err;
    }
    this.log.info("created the first admin from configuration", { username });
  }
}

/** A login refused unchecked: RESOURCE_EXHAUSTED, with when to try again. */
function refusedAtOnce(retryAfterSeconds: number, message: string): ConnectError {
  // The hint travels twice: as a google.rpc.RetryInfo detail for gRPC clients that decode
  // details, and as "retry-after" metadata (seconds) for everyone else.
  return new ConnectError(
    message,
    Code.ResourceExhausted,
    { "retry-after": String(retryAfterSeconds) },
    [{ desc: RetryInfoSchema, value: { retryDelay: { seconds: BigInt(retryAfterSeconds) } } }],
  );
}
