// validation-diff.mjs BASE.binpb HEAD.binpb [--format text|json] [--only FILE,…]
// validation-diff.mjs --head HEAD.binpb --batch FILE   (many bases: one "BASE\tONLY\tOUT" per line)
//
// buf judges a schema's shape, not its rules. This compares the buf.validate rules of two buf
// images (base and head, from `buf build -o`), read with protobuf-es and protovalidate's own
// generated buf.validate types, field by field and message by message, and says which changes
// break someone:
//   - a message a client sends (an RPC's request, or reachable from one): a rule that is added
//     or tightened refuses requests that passed before — breaking; loosened or removed is safe;
//   - a message a server sends (a response, or reachable from one): a rule loosened or removed
//     lets through answers a validating client refuses — breaking; tightened is safe;
//   - used both ways: both. A change that cannot be ordered (a changed pattern or CEL
//     expression, a set that is neither a subset nor a superset) breaks in every direction.
// Findings look like buf's (file:line:column:RULE_ID message; or one JSON object per line, with
// the element they concern) and exit status 100 says some were found, as buf's does. How each
// rule kind is ordered: the RULES table below.
import { readFileSync, writeFileSync } from "node:fs";
import { fromBinary, getExtension, hasExtension } from "@bufbuild/protobuf";
import { reflect } from "@bufbuild/protobuf/reflect";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import {
  field as fieldRules,
  FieldRulesSchema,
  message as messageRules,
  MessageRulesSchema,
} from "@bufbuild/protovalidate/gen/buf/validate/validate_pb.js";

// How a rule orders, by its field name in buf.validate (any rule type):
//   min   a larger value is stricter (len, bytes, items, pairs minimums)
//   max   a smaller value is stricter
//   lower / upper   gt, gte (a larger value is stricter) and lt, lte (a smaller one); a switch
//          between gt and gte is two changes, one rule removed and one added
//   allow  `in`: fewer values is stricter; deny `not_in`: more values is stricter
//   flag   true is stricter (unique, defined_only, the well-known formats, strict)
//   exact  any other value: added is stricter, removed looser, changed cannot be ordered
//   nested rules of elements, keys or values (FieldRules): compared the same way
//   ignored  documentation only (example)
const RULES = {
  minLen: "min", minBytes: "min", minItems: "min", minPairs: "min",
  maxLen: "max", maxBytes: "max", maxItems: "max", maxPairs: "max",
  gt: "lower", gte: "lower", lt: "upper", lte: "upper",
  in: "allow", notIn: "deny",
  unique: "flag", definedOnly: "flag", strict: "flag",
  items: "nested", keys: "nested", values: "nested",
  example: "ignored",
};
// IGNORE_ALWAYS (3) turns the rules off, IGNORE_IF_ZERO_VALUE (1) skips zero values,
// IGNORE_UNSPECIFIED (0) applies them: a higher rank is stricter.
const IGNORE_STRICTNESS = { 3: 0, 1: 1, 0: 2 };

const args = process.argv.slice(2);
const option = (name) => (args.indexOf(name) >= 0 ? args[args.indexOf(name) + 1] : undefined);
const batch = option("--batch");
const [basePath, headPath] = batch ? [undefined, option("--head")] : args;
if (!headPath || (!batch && !basePath)) {
  process.stderr.write("usage: validation-diff.mjs BASE.binpb HEAD.binpb [--format text|json] [--only FILE,…]\n" +
    "       validation-diff.mjs --head HEAD.binpb --batch FILE   (FILE: one BASE.binpb, ONLY and OUT per line, by tabs)\n");
  process.exit(2);
}
const format = batch ? "json" : option("--format") ?? "text";
const read = (path) => index(fromBinary(FileDescriptorSetSchema, readFileSync(path)));
const head = read(headPath);
// The findings of the comparison being made (record() adds to them).
let findings = [];

if (batch) {
  // Many bases against one head in one process (compare.py: every release at once): the head
  // is read once, and the runtime starts once instead of once per release. ONLY "-" is all files.
  for (const line of readFileSync(batch, "utf8").split("\n").filter(Boolean)) {
    const [base, only, out] = line.split("\t");
    writeFileSync(out, diff(read(base), only === "-" ? undefined : new Set(only.split(","))).map((f) => JSON.stringify(f) + "\n").join(""));
  }
  process.exit(0);
}
// --only: compare the messages of these files alone (a rule can only have changed in a file that
// changed since the base).
const only = option("--only") === undefined ? undefined : new Set(option("--only").split(","));
for (const f of diff(read(basePath), only)) {
  if (format === "json") {
    console.log(JSON.stringify(f));
  } else {
    console.log(`${f.file}:${f.line}:${f.column}:${f.rule} ${f.message}`);
  }
}
process.exit(findings.length ? 100 : 0);

/** Every breaking rule change from base to head, in the messages of the files in only (all if undefined). */
function diff(base, only) {
  findings = [];
  const uses = directions(head, base);
  for (const [name, h] of head.messages) {
    const b = base.messages.get(name);
    const way = uses.get(name);
    if (!b || !way) continue; // new messages, and messages no RPC carries, cannot break a caller
    if (only && !only.has(h.at.file)) continue;
    compareMessageRules(b, { ...h, element: name.slice(1) }, way, name.slice(1));
    for (const [number, hf] of h.fields) {
      const bf = b.fields.get(number);
      if (bf) compareRules(ruleOf(bf.proto.options, fieldRules), ruleOf(hf.proto.options, fieldRules),
        FieldRulesSchema, [], way, { ...hf, element: `${name.slice(1)}.${hf.proto.name}` }, `${name.slice(1)}.${hf.proto.name}`);
    }
  }
  return findings;
}

/** The messages (by full name, nested ones too) and methods of an image, with where each is. */
function index(set) {
  const messages = new Map(), methods = [];
  for (const file of set.file) {
    if (file.name.startsWith("buf/validate/") || file.name.startsWith("google/")) continue;
    const where = (path) => location(file, path);
    const walk = (list, prefix, path) => list.forEach((m, i) => {
      const full = `${prefix}.${m.name}`, own = [...path, i];
      const fields = new Map(m.field.map((f, j) => [f.number, { proto: f, at: where([...own, 2, j]) }]));
      messages.set(full, { proto: m, fields, at: where(own) });
      walk(m.nestedType, full, [...own, 3]);
    });
    walk(file.messageType, `${file.package ? "." + file.package : ""}`, [4]);
    for (const s of file.service) for (const m of s.method) methods.push(m);
  }
  return { messages, methods };
}

function location(file, path) {
  const found = file.sourceCodeInfo?.location.find((l) => l.path.length === path.length && l.path.every((p, i) => p === path[i]));
  return { file: file.name, line: (found?.span[0] ?? 0) + 1, column: (found?.span[1] ?? 0) + 1 };
}

/** "request", "response" or "both" for every message an RPC carries, directly or inside another. */
function directions(...images) {
  const way = new Map();
  const mark = (name, dir, seen = new Set()) => {
    if (seen.has(name)) return;
    seen.add(name);
    const before = way.get(name);
    way.set(name, before && before !== dir ? "both" : dir);
    for (const image of images) {
      for (const f of image.messages.get(name)?.proto.field ?? []) if (f.typeName) mark(f.typeName, dir, seen);
    }
  };
  for (const image of images) {
    for (const m of image.methods) {
      mark(m.inputType, "request");
      mark(m.outputType, "response");
    }
  }
  return way;
}

function ruleOf(options, extension) {
  return options && hasExtension(options, extension) ? getExtension(options, extension) : undefined;
}

/** Message-level rules: CEL expressions (by id), oneof requirements. */
function compareMessageRules(b, h, way, name) {
  compareRules(ruleOf(b.proto.options, messageRules), ruleOf(h.proto.options, messageRules),
    MessageRulesSchema, [], way, h, name);
}

/**
 * Compares two rule messages of one schema field by field (either may be undefined: no rules)
 * and records a finding for every change that breaks in the message's direction.
 */
function compareRules(before, after, schema, path, way, element, name) {
  if (!before && !after) return;
  const rb = before ? reflect(schema, before) : undefined, ra = after ? reflect(schema, after) : undefined;
  for (const f of (ra ?? rb).fields) {
    const setB = rb?.isSet(f) ?? false, setA = ra?.isSet(f) ?? false;
    if (!setB && !setA) continue;
    const key = f.localName, kind = RULES[key] ?? (f.fieldKind === "scalar" && f.scalar === 8 ? "flag" : "exact");
    const rule = [...path, f.name];
    if (kind === "ignored") continue;
    if (f.fieldKind === "message" && (kind === "nested" || f.message.typeName.startsWith("buf.validate.")) && f.message.typeName !== "buf.validate.Rule") {
      // A rule type (string, int32, repeated…) or nested rules: compare inside it.
      compareRules(setB ? rb.get(f).message : undefined, setA ? ra.get(f).message : undefined,
        f.message, rule, way, element, name);
      continue;
    }
    if (key === "cel") {
      compareCel(setB ? [...rb.get(f)].map((r) => r.message) : [], setA ? [...ra.get(f)].map((r) => r.message) : [],
        rule, way, element, name);
      continue;
    }
    const vb = setB ? plain(rb.get(f)) : undefined, va = setA ? plain(ra.get(f)) : undefined;
    record(order(kind, key, vb, va, setB, setA), rule, way, element, name, vb, va);
  }
}

/** CEL rules by id: added is stricter, removed looser, a changed expression cannot be ordered. */
function compareCel(before, after, path, way, element, name) {
  const ids = new Set([...before, ...after].map((r) => r.id));
  for (const id of ids) {
    const b = before.find((r) => r.id === id), a = after.find((r) => r.id === id);
    const change = !b ? "tightened" : !a ? "loosened" : b.expression === a.expression ? undefined : "changed";
    if (change) record(change, path, way, element, `${name} (CEL rule ${id || "without an id"})`, b?.expression, a?.expression);
  }
}

/** "tightened", "loosened", "changed" (cannot be ordered) or undefined (the same rule). */
function order(kind, key, vb, va, setB, setA) {
  // An unset ignore is IGNORE_UNSPECIFIED: the rules apply, the strictest.
  if (key === "ignore") {
    const b = IGNORE_STRICTNESS[setB ? vb : 0], a = IGNORE_STRICTNESS[setA ? va : 0];
    return a === b ? undefined : a > b ? "tightened" : "loosened";
  }
  if (!setB) return kind === "flag" && va === false ? undefined : "tightened";
  if (!setA) return kind === "flag" && vb === false ? undefined : "loosened";
  if (same(vb, va)) return undefined;
  // Bounds of durations and timestamps arrive as messages: not ordered here.
  if (typeof vb === "string" && ["min", "max", "lower", "upper"].includes(kind)) return "changed";
  switch (kind) {
    case "min": return va > vb ? "tightened" : "loosened";
    case "max": return va < vb ? "tightened" : "loosened";
    case "lower": return va > vb ? "tightened" : "loosened";
    case "upper": return va < vb ? "tightened" : "loosened";
    case "flag": return va ? "tightened" : "loosened";
    case "allow": return subset(va, vb) ? "tightened" : subset(vb, va) ? "loosened" : "changed";
    case "deny": return subset(vb, va) ? "tightened" : subset(va, vb) ? "loosened" : "changed";
    default:
      return "changed";
  }
}

/** Breaking in this direction? Then a finding at the element, named like buf's rules. */
function record(change, rule, way, element, name, vb, va) {
  if (!change) return;
  const breaks = change === "changed"
    || (change === "tightened" && way !== "response")
    || (change === "loosened" && way !== "request");
  if (!breaks) return;
  const id = `VALIDATE_${rule.join("_").toUpperCase()}_${change.toUpperCase()}`;
  const carried = { request: "sent by clients", response: "sent by servers", both: "sent both ways" }[way];
  const who = change === "changed" ? "either side" : change === "tightened" ? "clients whose requests passed before" : "clients that validate answers";
  const from = vb === undefined ? "unset" : show(vb), to = va === undefined ? "unset" : show(va);
  findings.push({ ...element.at, element: element.element, rule: id,
    message: `${name}: ${rule.join(".")} ${change} (${from} → ${to}) on a message ${carried}; breaks ${who}.` });
}

function plain(value) {
  if (value && typeof value === "object" && Symbol.iterator in value) return [...value].map(plain);
  if (value && typeof value === "object" && "message" in value) return JSON.stringify(value.message, (k, v) => (typeof v === "bigint" ? v.toString() : v));
  return typeof value === "bigint" ? Number(value) : value;
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function subset(small, large) {
  return small.every((v) => large.some((w) => same(v, w)));
}

function show(v) {
  return typeof v === "string" ? JSON.stringify(v) : Array.isArray(v) ? `[${v.map(show).join(", ")}]` : String(v);
}
