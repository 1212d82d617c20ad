// The golden modes (compatibility-tests/README.md, "golden-encode and golden-decode"), with
// the SDK's defaults: fromJson/toJson/toBinary/fromBinary without options, `equals` for
// messages. Each feature checks every vector and names all that differ, not only the first.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { equals, fromBinary, fromJson, type JsonValue, toBinary, toJson, toJsonString } from "@bufbuild/protobuf";
import { fail } from "../check.js";
import { describe, runFeatures } from "../report.js";
import { hex, jsonEqual, loadVectors, schemaOf, unhex, type Vector } from "./vectors.js";

/** Runs `check` on each vector, collecting "name: why" for those that differ. */
function eachVector(vectors: Vector[], check: (v: Vector) => string | undefined): void {
  const differ: string[] = [];
  for (const v of vectors) {
    try {
      const why = check(v);
      if (why) differ.push(`${v.name}: ${why}`);
    } catch (err) {
      differ.push(`${v.name}: ${describe(err)}`);
    }
  }
  if (differ.length > 0) fail(differ.join("; "));
}

export async function goldenEncode(vectorsPath: string, out: string): Promise<void> {
  const vectors = loadVectors(vectorsPath);
  mkdirSync(out, { recursive: true });
  await runFeatures(["golden-binary", "golden-json", "golden-unknown-fields"], {
    async "golden-binary"() {
      eachVector(vectors.filter((v) => !v.unknown), (v) => {
        const bytes = toBinary(schemaOf(v), fromJson(schemaOf(v), v.json));
        writeFileSync(join(out, `${v.name}.binpb`), bytes);
        return hex(bytes) === v.binary ? undefined : `encoded ${hex(bytes)}, want ${v.binary}`;
      });
    },
    async "golden-json"() {
      eachVector(vectors, (v) => {
        const json = toJson(schemaOf(v), fromBinary(schemaOf(v), unhex(v.binary)));
        writeFileSync(join(out, `${v.name}.json`), JSON.stringify(json) + "\n");
        return jsonEqual(json, v.json) ? undefined : `printed ${JSON.stringify(json)}, want ${JSON.stringify(v.json)}`;
      });
    },
    async "golden-unknown-fields"() {
      const unknown = vectors.filter((v) => v.unknown);
      if (unknown.length === 0) fail("no vector is marked unknown: nothing would be checked");
      eachVector(unknown, (v) => {
        const schema = schemaOf(v);
        const decoded = fromBinary(schema, unhex(v.binary));
        const bytes = toBinary(schema, decoded);
        writeFileSync(join(out, `${v.name}.binpb`), bytes);
        return relayProblem(v, decoded, bytes);
      });
    },
  });
}

/** An unknown vector relayed by the current schema: same bytes out, known part equal to json. */
function relayProblem(v: Vector, decoded: ReturnType<typeof fromBinary>, bytes: Uint8Array): string | undefined {
  const schema = schemaOf(v);
  if (hex(bytes) !== v.binary) return `re-encoded ${hex(bytes)}, want ${v.binary} (the unknown field did not survive)`;
  const known = fromJson(schema, v.json);
  if (!equals(schema, decoded, known)) return `known fields ${toJsonString(schema, decoded)}, want ${JSON.stringify(v.json)}`;
  return undefined;
}

export async function goldenDecode(vectorsPath: string, peer: string, dir: string): Promise<void> {
  const vectors = loadVectors(vectorsPath);
  await runFeatures(["golden-decode"], {
    async "golden-decode"() {
      const files = readdirSync(dir).filter((f) => f.endsWith(".binpb") || f.endsWith(".json"));
      const byName = new Map(vectors.map((v) => [v.name, v]));
      const differ: string[] = [];
      // Every file the contract says golden-encode writes must be there: .json for every
      // vector, .binpb for every vector (encoded or relayed).
      for (const v of vectors) {
        for (const ext of [".binpb", ".json"]) {
          if (!files.includes(v.name + ext)) differ.push(`${v.name}${ext}: missing`);
        }
      }
      for (const file of files.sort()) {
        const name = file.replace(/\.(binpb|json)$/, "");
        const v = byName.get(name);
        if (!v) {
          differ.push(`${file}: no vector of that name`);
          continue;
        }
        try {
          const schema = schemaOf(v);
          const want = fromJson(schema, v.json);
          const content = readFileSync(join(dir, file));
          let why: string | undefined;
          if (file.endsWith(".binpb")) {
            const decoded = fromBinary(schema, new Uint8Array(content));
            if (v.unknown) {
              why = relayProblem(v, decoded, toBinary(schema, decoded));
            } else if (!equals(schema, decoded, want)) {
              why = `decodes to ${toJsonString(schema, decoded)}, want ${JSON.stringify(v.json)}`;
            } else if ((decoded.$unknown ?? []).length > 0) {
              why = `carries fields the schema does not know: ${(decoded.$unknown ?? []).map((u) => u.no).join(", ")}`;
            }
          } else {
            const parsed = fromJson(schema, JSON.parse(content.toString("utf8")) as JsonValue);
            if (!equals(schema, parsed, want)) why = `parses to ${toJsonString(schema, parsed)}, want ${JSON.stringify(v.json)}`;
          }
          if (why) differ.push(`${file}: ${why}`);
        } catch (err) {
          differ.push(`${file}: ${describe(err)}`);
        }
      }
      if (differ.length > 0) fail(`peer ${peer}: ${differ.join("; ")}`);
    },
  });
}
