// Roles travel as their proto enum names ("ROLE_ADMIN") in tokens and in the database,
// so neither depends on enum numbers.
import { Role, RoleSchema } from "@acme/contracts/acme/auth/v1/user_pb";
import type { RoleName } from "./user-store.js";

export function roleName(role: Role): RoleName {
  const name = RoleSchema.value[role]?.name;
  if (name !== "ROLE_USER" && name !== "ROLE_ADMIN") throw new Error(`role ${role} cannot be granted`);
  return name;
}

export function roleFromName(name: unknown): Role | undefined {
  if (name !== "ROLE_USER" && name !== "ROLE_ADMIN") return undefined;
  return RoleSchema.values.find((v) => v.name === name)?.number as Role;
}
