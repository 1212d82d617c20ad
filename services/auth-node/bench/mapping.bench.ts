// DTO↔protobuf-es mapping vs JSON, per payload: plain object → create() → toBinary, and
// fromBinary → plain object, against JSON.stringify / JSON.parse of the same object.
// Run with `make bench-auth`; prints ops/s, the 95% margin of error and encoded sizes.
// Not part of the tests: the figures depend on the machine and are for reading.
import assert from "node:assert/strict";
import { Bench } from "tinybench";
import {
  loginRequest,
  loginRequestFromBinary,
  loginRequestToBinary,
  loginResponse,
  loginResponseFromBinary,
  loginResponseToBinary,
  personFromBinary,
  personToBinary,
  personToBinaryFromJson,
  personToBinaryLiteral,
  samples,
} from "./dto.js";

interface Case {
  name: string;
  dto: object;
  toBinary: (dto: never) => Uint8Array;
  fromBinary: (bytes: Uint8Array) => object;
}

const cases: Case[] = [
  ...(["small", "medium", "large"] as const).map((size) => ({
    name: `person ${size}`,
    dto: samples[size],
    toBinary: personToBinary,
    fromBinary: personFromBinary,
  })),
  { name: "login request", dto: loginRequest, toBinary: loginRequestToBinary, fromBinary: loginRequestFromBinary },
  { name: "login response", dto: loginResponse, toBinary: loginResponseToBinary, fromBinary: loginResponseFromBinary },
];

const time = Number(process.env["BENCH_TIME_MS"] ?? 1000);
const rows: string[][] = [];
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

for (const c of cases) {
  const bytes = c.toBinary(c.dto as never);
  const json = JSON.stringify(c.dto);
  // Both round trips must give back the DTO, or the comparison means nothing.
  assert.deepEqual(c.fromBinary(bytes), c.dto, `${c.name}: protobuf round trip`);
  assert.deepEqual(JSON.parse(json), c.dto, `${c.name}: JSON round trip`);

  const bench = new Bench({ time, warmupTime: Math.min(200, time) });
  let sink: unknown;
  bench
    .add("protobuf encode", () => void (sink = c.toBinary(c.dto as never)))
    .add("JSON encode", () => void (sink = JSON.stringify(c.dto)))
    .add("protobuf decode", () => void (sink = c.fromBinary(bytes)))
    .add("JSON decode", () => void (sink = JSON.parse(json)));
  await bench.run();
  void sink;
  const hz = (name: string) => {
    const r = bench.getTask(name)!.result;
    assert.equal(r.state, "completed", `${c.name} ${name}: ${r.state}`);
    return r as Extract<typeof r, { state: "completed" }>;
  };
  for (const op of ["encode", "decode"]) {
    const pb = hz(`protobuf ${op}`);
    const js = hz(`JSON ${op}`);
    const ratio = pb.throughput.mean / js.throughput.mean;
    rows.push([
      c.name,
      op,
      `${fmt(pb.throughput.mean)} ±${pb.throughput.rme.toFixed(1)}%`,
      `${fmt(js.throughput.mean)} ±${js.throughput.rme.toFixed(1)}%`,
      ratio >= 1 ? `protobuf ${ratio.toFixed(2)}×` : `JSON ${(1 / ratio).toFixed(2)}×`,
      fmt(bytes.length),
      fmt(Buffer.byteLength(json)),
    ]);
  }
}

// Which DTO → protobuf mapping is fastest: the three ways of dto.ts, each with its encode.
const mappings = [
  ["create()", personToBinary],
  ["fromJson()", personToBinaryFromJson],
  ["message literal", personToBinaryLiteral],
] as const;
const mappingRows: string[][] = [];
for (const size of ["small", "medium", "large"] as const) {
  const dto = samples[size];
  const bench = new Bench({ time, warmupTime: Math.min(200, time) });
  let sink: unknown;
  for (const [name, map] of mappings) {
    assert.deepEqual(map(dto), personToBinary(dto), `${name} must encode the same bytes`);
    bench.add(name, () => void (sink = map(dto)));
  }
  await bench.run();
  void sink;
  const results = mappings.map(([name]) => {
    const r = bench.getTask(name)!.result;
    assert.equal(r.state, "completed", `${size} ${name}: ${r.state}`);
    return [name, (r as Extract<typeof r, { state: "completed" }>).throughput] as const;
  });
  const best = Math.max(...results.map(([, t]) => t.mean));
  for (const [name, t] of results) {
    mappingRows.push([`person ${size}`, name, `${fmt(t.mean)} ±${t.rme.toFixed(1)}%${t.rme >= 10 ? " ⚠" : ""}`,
      t.mean === best ? "fastest" : `${(best / t.mean).toFixed(2)}× slower`]);
  }
}

const header = ["payload", "op", "protobuf-es ops/s", "JSON ops/s", "faster", "proto bytes", "JSON bytes"];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
console.log(`\nDTO ↔ protobuf-es vs JSON — Node ${process.version}, ${time} ms per task\n`);
console.log(line(header));
console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
for (const r of rows) console.log(line(r));

const mheader = ["payload", "DTO → protobuf, with encode", "ops/s", "vs fastest"];
const mwidths = mheader.map((h, i) => Math.max(h.length, ...mappingRows.map((r) => r[i]!.length)));
const mline = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(mwidths[i]!)).join(" | ")} |`;
console.log(`\nWhich mapping is fastest (⚠: margin of error 10 % or more)\n`);
console.log(mline(mheader));
console.log(`|${mwidths.map((w) => "-".repeat(w + 2)).join("|")}|`);
for (const r of mappingRows) console.log(mline(r));
