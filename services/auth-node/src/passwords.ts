// Password hashing with scrypt (node:crypto) and a random 16-byte salt per user. A stored
// hash carries its own parameters, so raising the cost later leaves old hashes verifiable.
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;

interface Params {
  logN: number;
  r: number;
  p: number;
}

export class PasswordHasher {
  private readonly params: Params;
  // Verified against when the username does not exist, so an unknown user costs the same
  // key derivation as a known one: the two cannot be told apart by timing.
  private dummyHash = "";

  private constructor(logN: number) {
    this.params = { logN, r: BLOCK_SIZE, p: PARALLELISM };
  }

  /** A hasher whose dummy hash is ready, so even the first unknown-user login costs no extra. */
  static async create(logN: number): Promise<PasswordHasher> {
    const hasher = new PasswordHasher(logN);
    hasher.dummyHash = await hasher.hash(randomBytes(24).toString("base64"));
    return hasher;
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_LENGTH);
    const key = await derive(password, salt, this.params);
    const { logN, r, p } = this.params;
    return `scrypt$${logN}$${r}$${p}$${salt.toString("base64")}$${key.toString("base64")}`;
  }

  /** Checks password against stored; with no stored hash, spends the same work and says no. */
  async verify(password: string, stored: string | undefined): Promise<boolean> {
    const target = parse(stored ?? this.dummyHash);
    const key = await derive(password, target.salt, target.params);
    const same = key.length === target.key.length && timingSafeEqual(key, target.key);
    return same && stored !== undefined;
  }
}

function derive(password: string, salt: Buffer, { logN, r, p }: Params): Promise<Buffer> {
  const N = 2 ** logN;
  return new Promise((resolve, reject) => {
    // scrypt needs 128·N·r bytes; node's default cap (32 MiB) is exactly that at N=2^15, r=8.
    scrypt(password.normalize("NFC"), salt, KEY_LENGTH, { N, r, p, maxmem: 256 * N * r }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

function parse(stored: string): { params: Params; salt: Buffer; key: Buffer } {
  const [scheme, logN, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !logN || !r || !p || !salt || !key) {
    throw new Error("stored password hash has an unknown format");
  }
  return {
    params: { logN: Number(logN), r: Number(r), p: Number(p) },
    salt: Buffer.from(salt, "base64"),
    key: Buffer.from(key, "base64"),
  };
}
