package com.acme.compat.harness;

import com.google.protobuf.util.Timestamps;
import java.math.BigDecimal;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Compares what a call gave (the SDK's JSON form of each message, default values omitted) with
 * what a case expects (README.md, "Cases"). A plain object must have exactly the expected
 * fields — a field the case does not name must be absent, that is, at its default — and a list
 * exactly the expected items. Matchers loosen or sharpen that where a case says so.
 */
final class Expect {
  private static final Pattern UUID =
      Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
  private static final Set<String> LIST_MATCHERS =
      Set.of("$count", "$distinct", "$contains", "$sameSet", "$nondecreasing", "$violations");

  private Expect() {}

  /** Every difference, each with the path where it is; empty when actual is as expected. */
  static List<String> differences(JsonNode expected, JsonNode actual) {
    List<String> out = new ArrayList<>();
    match(expected, actual, "", out);
    return out;
  }

  private static void match(JsonNode expected, JsonNode actual, String path, List<String> out) {
    String at = path.isEmpty() ? "" : path + ": ";
    if (expected.isString() && expected.asString().startsWith("$")) {
      scalarMatcher(expected.asString(), actual, at, out);
    } else if (expected.isObject() && expected.has("$partial")) {
      JsonNode partial = expected.get("$partial");
      if (actual == null || !actual.isObject()) {
        out.add(at + "expected an object, got " + show(actual));
        return;
      }
      partial.properties().forEach(e -> match(e.getValue(), actual.get(e.getKey()), join(path, e.getKey()), out));
    } else if (expected.isObject() && expected.has("$merge")) {
      ObjectNode whole = ((ObjectNode) expected.get("$merge")).deepCopy();
      expected.properties().stream().filter(e -> !e.getKey().equals("$merge")).forEach(e -> whole.set(e.getKey(), e.getValue()));
      match(whole, actual, path, out);
    } else if (expected.isObject() && expected.propertyNames().stream().anyMatch(LIST_MATCHERS::contains)) {
      listMatchers(expected, actual, at, path, out);
    } else if (expected.isObject()) {
      if (actual == null || !actual.isObject()) {
        out.add(at + "expected an object, got " + show(actual));
        return;
      }
      Set<String> names = new LinkedHashSet<>(expected.propertyNames());
      names.addAll(actual.propertyNames());
      for (String name : names) {
        JsonNode want = expected.get(name);
        if (want == null) {
          out.add(join(path, name) + ": not expected, got " + show(actual.get(name)));
        } else {
          match(want, actual.get(name), join(path, name), out);
        }
      }
    } else if (expected.isArray()) {
      if (actual == null || !actual.isArray()) {
        out.add(at + "expected a list of " + expected.size() + ", got " + show(actual));
        return;
      }
      if (expected.size() != actual.size()) {
        out.add(at + "expected " + expected.size() + " items, got " + actual.size() + ": " + show(actual));
        return;
      }
      for (int i = 0; i < expected.size(); i++) {
        match(expected.get(i), actual.get(i), join(path, String.valueOf(i)), out);
      }
    } else if (!sameScalar(expected, actual)) {
      out.add(at + "expected " + show(expected) + ", got " + show(actual));
    }
  }

  /** JSON writes 64-bit integers as strings: 25 and "25" are the same number there. */
  private static boolean sameScalar(JsonNode expected, JsonNode actual) {
    if (actual == null || actual.isContainer()) {
      return false;
    }
    if (expected.isNumber() || actual.isNumber()) {
      try {
        return new BigDecimal(expected.asString()).compareTo(new BigDecimal(actual.asString())) == 0;
      } catch (NumberFormatException e) {
        return false;
      }
    }
    return expected.equals(actual);
  }

  private static void scalarMatcher(String matcher, JsonNode actual, String at, List<String> out) {
    boolean text = actual != null && actual.isString();
    boolean ok = switch (matcher) {
      case "$any" -> actual != null;
      case "$nonempty" -> text && !actual.asString().isEmpty();
      case "$uuid" -> text && UUID.matcher(actual.asString()).matches();
      case "$timestamp" -> text && timestamp(actual.asString()) != null;
      case "$future" -> text && timestamp(actual.asString()) != null
          && Timestamps.compare(timestamp(actual.asString()), Timestamps.now()) > 0;
      default -> throw new IllegalArgumentException("unknown matcher " + matcher);
    };
    if (!ok) {
      out.add(at + "expected " + matcher.substring(1) + ", got " + show(actual));
    }
  }

  private static com.google.protobuf.Timestamp timestamp(String s) {
    try {
      return Timestamps.parse(s);
    } catch (ParseException e) {
      return null;
    }
  }

  /** $count, $distinct, $contains, $sameSet, $nondecreasing, $violations: all must hold. */
  private static void listMatchers(JsonNode expected, JsonNode actual, String at, String path, List<String> out) {
    if (actual == null || !actual.isArray()) {
      out.add(at + "expected a list, got " + show(actual));
      return;
    }
    for (var e : expected.properties()) {
      JsonNode want = e.getValue();
      switch (e.getKey()) {
        case "$count" -> {
          if (actual.size() != want.asInt()) {
            out.add(at + "expected " + want.asInt() + " items, got " + actual.size() + ": " + show(actual));
          }
        }
        case "$distinct" -> {
          Set<JsonNode> distinct = new HashSet<>();
          actual.forEach(distinct::add);
          if (actual.size() != want.asInt() || distinct.size() != want.asInt()) {
            out.add(at + "expected " + want.asInt() + " distinct items, got " + distinct.size() + " of " + actual.size());
          }
        }
        case "$contains" -> {
          boolean found = false;
          for (JsonNode item : actual) {
            found |= differences(want, item).isEmpty();
          }
          if (!found) {
            out.add(at + "no item matches " + show(want) + " among " + show(actual));
          }
        }
        case "$sameSet" -> {
          Set<JsonNode> got = new HashSet<>();
          actual.forEach(got::add);
          Set<JsonNode> wanted = new HashSet<>();
          want.forEach(wanted::add);
          if (!got.equals(wanted) || got.size() != actual.size()) {
            out.add(at + "expected the set " + show(want) + ", got " + show(actual));
          }
        }
        case "$nondecreasing" -> {
          for (int i = 1; i < actual.size(); i++) {
            String before = field(actual.get(i - 1), want.asString()), after = field(actual.get(i), want.asString());
            var t0 = timestamp(before);
            var t1 = timestamp(after);
            if (t0 == null || t1 == null ? before.compareTo(after) > 0 : Timestamps.compare(t0, t1) > 0) {
              out.add(at + want.asString() + " decreases at item " + i + ": " + before + " then " + after);
            }
          }
        }
        case "$violations" -> {
          List<String> names = new ArrayList<>();
          actual.forEach(v -> names.add(violation(v)));
          want.forEach(w -> {
            if (!names.contains(w.asString())) {
              out.add(at + "no violation " + w.asString() + " among " + names);
            }
          });
        }
        default -> throw new IllegalArgumentException(path + ": " + e.getKey() + " cannot be mixed with list matchers");
      }
    }
  }

  /** A field's text by a dotted path; timestamps are compared as times, other values as text. */
  private static String field(JsonNode item, String dotted) {
    JsonNode node = item;
    for (String name : dotted.split("\\.")) {
      node = node == null ? null : node.get(name);
    }
    return node == null ? "" : node.asString();
  }

  /** A buf.validate.Violation in JSON form as "path/rule_id" (the path's field names joined by "."). */
  static String violation(JsonNode v) {
    List<String> names = new ArrayList<>();
    v.path("field").path("elements").forEach(e -> names.add(e.path("fieldName").asString()));
    return String.join(".", names) + "/" + v.path("ruleId").asString();
  }

  private static String join(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  static String show(JsonNode node) {
    return node == null ? "nothing" : Values.abbreviate(node);
  }
}
