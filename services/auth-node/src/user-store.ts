// The users, as the rules (accounts.ts) see them: plain records in and out, through a store
// that is SQLite in the data folder (sqlite-store.ts, the default) or PostgreSQL shared by
// every replica (postgres-store.ts). Nothing here knows about protobuf or RPCs. A method
// resolves only once its write is safe from a crash of this process (README: Durability).
export type RoleName = "ROLE_USER" | "ROLE_ADMIN";

export interface UserRecord {
  username: string;
  passwordHash: string;
  roles: RoleName[];
  disabled: boolean;
  createdAt: Date;
}

export interface UserStore {
  count(): Promise<number>;
  find(username: string): Promise<UserRecord | undefined>;
  /** Inserts the user; false when the username is taken (the existing row is left as it was). */
  insert(user: UserRecord): Promise<boolean>;
  /** Marks the user disabled; the user afterwards, or undefined when there is none. */
  disable(username: string): Promise<UserRecord | undefined>;
  list(): Promise<UserRecord[]>;
}

/** A stored row's roles: a JSON array of role names. */
export function rolesFromJson(json: string): RoleName[] {
  return JSON.parse(json) as RoleName[];
}
