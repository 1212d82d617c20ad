// Signed JWTs: issued on login, checked by ValidateToken and by the admin RPCs. Only
// EdDSA with our own key is accepted — "none", HMAC and RSA tokens, and tokens signed by
// any other key, fail — and issuer, audience and expiry are checked with a small skew.
import { errors, jwtVerify, SignJWT } from "jose";
import { SIGNING_ALGORITHM, type SigningKey } from "./signing-key.js";
import type { RoleName } from "./user-store.js";

export interface TokenSettings {
  issuer: string;
  audience: string;
  ttlSeconds: number;
  clockSkewSeconds: number;
}

export interface TokenClaims {
  subject: string;
  roles: RoleName[];
  expiresAt: Date;
}

/** Why a token was refused; for logs and for telling "expired" apart, never with the token. */
export class InvalidTokenError extends Error {
  override name = "InvalidTokenError";
  constructor(
    message: string,
    readonly expired = false,
  ) {
    super(message);
  }
}

export class TokenService {
  constructor(
    private readonly key: SigningKey,
    private readonly settings: TokenSettings,
    private readonly now: () => number = Date.now,
  ) {}

  async issue(subject: string, roles: RoleName[]): Promise<{ token: string; expiresAt: Date }> {
    const issuedAt = Math.floor(this.now() / 1000);
    const expiresAt = issuedAt + this.settings.ttlSeconds;
    const token = await new SignJWT({ roles })
      .setProtectedHeader({ alg: SIGNING_ALGORITHM, typ: "JWT", kid: this.key.kid })
      .setIssuer(this.settings.issuer)
      .setAudience(this.settings.audience)
      .setSubject(subject)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(this.key.privateKey);
    return { token, expiresAt: new Date(expiresAt * 1000) };
  }

  async verify(token: string): Promise<TokenClaims> {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, this.key.publicKey, {
        algorithms: [SIGNING_ALGORITHM],
        issuer: this.settings.issuer,
        audience: this.settings.audience,
        clockTolerance: this.settings.clockSkewSeconds,
        requiredClaims: ["iss", "aud", "sub", "iat", "exp"],
        currentDate: new Date(this.now()),
      }));
    } catch (err) {
      if (err instanceof errors.JWTExpired) throw new InvalidTokenError("token expired", true);
      if (err instanceof errors.JOSEError) throw new InvalidTokenError(`${err.code}: ${err.message}`);
      throw err;
    }
    if (payload.iat! > this.now() / 1000 + this.settings.clockSkewSeconds) {
      throw new InvalidTokenError("token issued in the future");
    }
    const roles = payload["roles"];
    if (!Array.isArray(roles) || !roles.every((r) => r === "ROLE_USER" || r === "ROLE_ADMIN")) {
      throw new InvalidTokenError("token roles claim is not a list of known roles");
    }
    return { subject: payload.sub!, roles: roles as RoleName[], expiresAt: new Date(payload.exp! * 1000) };
  }
}
