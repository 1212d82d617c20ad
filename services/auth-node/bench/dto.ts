// The plain DTOs a TypeScript service hands around, the sample data for each size, and
// the DTO↔protobuf-es mapping being measured.
import { create, fromBinary, fromJson, toBinary } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type Person, PersonSchema } from "@acme/contracts/acme/person/v1/person_pb";
import { LoginRequestSchema, LoginResponseSchema } from "@acme/contracts/acme/auth/v1/auth_service_pb";

export interface AddressDto {
  city: string;
  zipCode: string;
}

export interface PersonDto {
  id?: string;
  name: string;
  age: number;
  hobbies?: string[];
  address?: AddressDto;
  /** ISO-8601, as a JSON API would carry it. */
  createdAt?: string;
}

export interface LoginRequestDto {
  username: string;
  password: string;
}

export interface LoginResponseDto {
  token: string;
  expiresAt: string;
}

export const samples = {
  small: { name: "Ada Lovelace", age: 36 } satisfies PersonDto,
  medium: {
    id: "3f0e8a52-6c1d-4f7a-9b2e-8d5c4a1b0e97",
    name: "Ada Lovelace",
    age: 36,
    hobbies: ["mathematics", "poetry", "analytical engines"],
    address: { city: "London", zipCode: "W1J 7NT" },
    createdAt: "2026-11-22T12:34:56.789Z",
  } satisfies PersonDto,
  // 50 hobbies of 2,000 characters: a ~100 KB payload, within the schema's limits.
  large: {
    id: "3f0e8a52-6c1d-4f7a-9b2e-8d5c4a1b0e97",
    name: "Ada Lovelace",
    age: 36,
    hobbies: Array.from({ length: 50 }, (_, i) => `hobby ${i} `.padEnd(2000, "abcdefghij")),
    address: { city: "London", zipCode: "W1J 7NT" },
    createdAt: "2026-11-22T12:34:56.789Z",
  } satisfies PersonDto,
};

export const loginRequest: LoginRequestDto = { username: "ada.lovelace", password: "correct-horse-battery-staple" };
export const loginResponse: LoginResponseDto = {
  // A real-sized EdDSA JWT: header, claims with two roles, 64-byte signature.
  token:
    "eyJhbGciOiJFZERTQSIsInR5cCI6IkpXVCIsImtpZCI6IklRTlB3TUJUd18zMkpkOVN6eGg4aXRScldzbjlMZTVLZnhEWFBteWQ5YlEifQ." +
    "eyJyb2xlcyI6WyJST0xFX0FETUlOIiwiUk9MRV9VU0VSIl0sImlzcyI6ImFjbWUtYXV0aCIsImF1ZCI6ImFjbWUiLCJzdWIiOiJhZG1pbiIsImlhdCI6MTc5NTM5MDg3MSwiZXhwIjoxNzk1Mzk0NDcxfQ." +
    "pglS8xZvpJdVMASTskYXQMIfzrWZASoQCkCRiKuygp02Qtcv_oAw9Ba5y9DvZWnflUNGlkDLkv2X04i8755NCg",
  expiresAt: "2026-11-23T00:41:11.000Z",
};

export function personToBinary(dto: PersonDto): Uint8Array {
  return toBinary(
    PersonSchema,
    create(PersonSchema, {
      id: dto.id,
      name: dto.name,
      age: dto.age,
      hobbies: dto.hobbies,
      address: dto.address,
      createdAt: dto.createdAt === undefined ? undefined : timestampFromDate(new Date(dto.createdAt)),
    }),
  );
}

/**
 * The same mapping three ways, to say which is fastest (mapping.bench.ts): create() from an
 * init object (above), fromJson() of the DTO as it stands (its fields already follow the
 * proto3 JSON mapping), and a literal of the message type, which skips create()'s walk over
 * the schema.
 */
export function personToBinaryFromJson(dto: PersonDto): Uint8Array {
  return toBinary(PersonSchema, fromJson(PersonSchema, dto as never));
}

export function personToBinaryLiteral(dto: PersonDto): Uint8Array {
  const person: Person = {
    $typeName: "acme.person.v1.Person",
    id: dto.id ?? "",
    name: dto.name,
    age: dto.age,
    hobbies: dto.hobbies ?? [],
    address: dto.address && { $typeName: "acme.person.v1.Address", city: dto.address.city, zipCode: dto.address.zipCode },
    createdAt: dto.createdAt === undefined ? undefined : timestampFromDate(new Date(dto.createdAt)),
  };
  return toBinary(PersonSchema, person);
}

export function personFromBinary(bytes: Uint8Array): PersonDto {
  const p = fromBinary(PersonSchema, bytes);
  const dto: PersonDto = { name: p.name, age: p.age };
  if (p.id) dto.id = p.id;
  if (p.hobbies.length) dto.hobbies = p.hobbies;
  if (p.address) dto.address = { city: p.address.city, zipCode: p.address.zipCode };
  if (p.createdAt) dto.createdAt = timestampDate(p.createdAt).toISOString();
  return dto;
}

export function loginRequestToBinary(dto: LoginRequestDto): Uint8Array {
  return toBinary(LoginRequestSchema, create(LoginRequestSchema, dto));
}

export function loginRequestFromBinary(bytes: Uint8Array): LoginRequestDto {
  const m = fromBinary(LoginRequestSchema, bytes);
  return { username: m.username, password: m.password };
}

export function loginResponseToBinary(dto: LoginResponseDto): Uint8Array {
  return toBinary(
    LoginResponseSchema,
    create(LoginResponseSchema, { token: dto.token, expiresAt: timestampFromDate(new Date(dto.expiresAt)) }),
  );
}

export function loginResponseFromBinary(bytes: Uint8Array): LoginResponseDto {
  const m = fromBinary(LoginResponseSchema, bytes);
  return { token: m.token, expiresAt: timestampDate(m.expiresAt!).toISOString() };
}
