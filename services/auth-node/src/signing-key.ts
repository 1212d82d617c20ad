// The token signing key: Ed25519, generated on first start and kept in the data folder
// (mode 0600), so tokens survive a restart. Its public half is published as a JWKS.
import { randomUUID } from "node:crypto";
import { chmod, readFile, rename, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from "jose";
import type { Logger } from "./log.js";

export const SIGNING_ALGORITHM = "EdDSA";
export const KEY_FILE = "signing-key.jwk.json";

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** The public key as published: kty, crv, x, kid, alg, use. */
  publicJwk: JWK;
}

export async function loadOrCreateSigningKey(dataDir: string, log: Logger): Promise<SigningKey> {
  const path = join(dataDir, KEY_FILE);
  let privateJwk: JWK;
  try {
    privateJwk = JSON.parse(await readFile(path, "utf8")) as JWK;
    const mode = (await stat(path)).mode & 0o777;
    if (mode !== 0o600) {
      log.warn("signing key file was readable by others; restricting it to its owner", { path, mode: mode.toString(8) });
      await chmod(path, 0o600);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    privateJwk = await createKeyFile(path);
    log.info("generated a new token signing key", { path });
  }
  return fromPrivateJwk(privateJwk);
}

async function createKeyFile(path: string): Promise<JWK> {
  const { privateKey } = await generateKeyPair(SIGNING_ALGORITHM, { crv: "Ed25519", extractable: true });
  const jwk = await exportJWK(privateKey);
  jwk.kid = await calculateJwkThumbprint(jwk);
  // Written whole to a temporary name, then renamed: a crash never leaves half a key.
  const tmp = `${path}.${randomUUID()}.tmp`;
  await writeFile(tmp, JSON.stringify(jwk) + "\n", { mode: 0o600, flag: "wx" });
  await rename(tmp, path);
  return jwk;
}

async function fromPrivateJwk(jwk: JWK): Promise<SigningKey> {
  if (jwk.kty !== "OKP" || jwk.crv !== "Ed25519" || !jwk.d || !jwk.x || !jwk.kid) {
    throw new Error(`${KEY_FILE} is not an Ed25519 private key with a kid`);
  }
  const publicJwk: JWK = { kty: jwk.kty, crv: jwk.crv, x: jwk.x, kid: jwk.kid, alg: SIGNING_ALGORITHM, use: "sig" };
  return {
    kid: jwk.kid,
    privateKey: (await importJWK(jwk, SIGNING_ALGORITHM)) as CryptoKey,
    publicKey: (await importJWK(publicJwk, SIGNING_ALGORITHM)) as CryptoKey,
    publicJwk,
  };
}

/** The JWKS document other services fetch to verify tokens themselves. */
export function jwks(key: SigningKey): { keys: JWK[] } {
  return { keys: [key.publicJwk] };
}
