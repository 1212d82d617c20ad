// The token signing key: Ed25519, generated on first start and kept where the users are — a
// file in the data folder (mode 0600) beside the SQLite database, or a row in PostgreSQL
// shared by every replica — so tokens survive a restart and any replica verifies any
// replica's tokens. Its public half is published as a JWKS.
import { randomUUID } from "node:crypto";
import { chmod, link, open, readFile, stat, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
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

/** Where the private key is kept. */
export interface KeyStore {
  /** For logs: the file or the database. */
  readonly where: string;
  /** The stored private JWK, or undefined when there is none yet. */
  load(): Promise<JWK | undefined>;
  /** Stores jwk unless a key is stored already (another replica's, started at the same
   * time); resolves to the key that is stored, once it is safe from a crash. */
  saveFirst(jwk: JWK): Promise<JWK>;
}

export async function loadOrCreateSigningKey(keys: KeyStore, log: Logger): Promise<SigningKey> {
  let jwk = await keys.load();
  if (!jwk) {
    const fresh = await generate();
    jwk = await keys.saveFirst(fresh);
    if (jwk.kid === fresh.kid) log.info("generated a new token signing key", { where: keys.where });
  }
  return fromPrivateJwk(jwk);
}

async function generate(): Promise<JWK> {
  const { privateKey } = await generateKeyPair(SIGNING_ALGORITHM, { crv: "Ed25519", extractable: true });
  const jwk = await exportJWK(privateKey);
  jwk.kid = await calculateJwkThumbprint(jwk);
  return jwk;
}

/** The key in $AUTH_DATA_DIR/signing-key.jwk.json, readable by its owner only. */
export class FileKeyStore implements KeyStore {
  readonly where: string;

  constructor(
    dataDir: string,
    private readonly log: Logger,
  ) {
    this.where = join(dataDir, KEY_FILE);
  }

  async load(): Promise<JWK | undefined> {
    const path = this.where;
    let jwk: JWK;
    try {
      jwk = JSON.parse(await readFile(path, "utf8")) as JWK;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw err;
    }
    const mode = (await stat(path)).mode & 0o777;
    if (mode !== 0o600) {
      this.log.warn("signing key file was readable by others; restricting it to its owner", { path, mode: mode.toString(8) });
      await chmod(path, 0o600);
    }
    return jwk;
  }

  async saveFirst(jwk: JWK): Promise<JWK> {
    const path = this.where;
    // Written whole and synced under a temporary name, then linked into place (link, unlike
    // rename, refuses to replace a key that appeared meanwhile), then the folder synced: a
    // crash or a power loss never leaves half a key, nor a key the tokens were not signed with.
    const tmp = `${path}.${randomUUID()}.tmp`;
    const file = await open(tmp, "wx", 0o600);
    try {
      await file.writeFile(JSON.stringify(jwk) + "\n");
      await file.sync();
    } finally {
      await file.close();
    }
    try {
      await link(tmp, path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    } finally {
      await unlink(tmp);
    }
    const dir = await open(dirname(path), "r");
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
    return (await this.load())!;
  }
}

async function fromPrivateJwk(jwk: JWK): Promise<SigningKey> {
  if (jwk.kty !== "OKP" || jwk.crv !== "Ed25519" || !jwk.d || !jwk.x || !jwk.kid) {
    throw new Error("the stored signing key is not an Ed25519 private key with a kid");
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
