package com.acme.compat.harness;

import java.security.SecureRandom;
import java.text.Normalizer;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The values of a case (README.md, "Cases"): "${name.path}" reads what an earlier step saved or
 * a variable, and objects with one "$" key generate values ($for, $repeat, $concat, $nfc, $nfd).
 * A string that is exactly one "${…}" becomes the value itself (a number stays a number, an
 * object an object); inside longer text it is spliced in as text. Matchers ("$uuid",
 * {"$partial": …}) pass through untouched, with their own values evaluated, for Expect.
 */
final class Values {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final Pattern REFERENCE = Pattern.compile("\\$\\{([^}]*)}");
  private static final SecureRandom RANDOM = new SecureRandom();
  /** W3C trace context ids, one per label for the whole case: "${traceid:x}" 16 bytes, "${spanid:x}" 8. */
  private static final Map<String, Integer> HEX_IDS = Map.of("traceid", 16, "spanid", 8);

  /** Variables by name, and the UUIDs "${uuid:label}" handed out in this case so far. */
  static final class Scope {
    private final Map<String, JsonNode> variables;
    private final Map<String, String> uuids;

    Scope() {
      this(new HashMap<>(), new HashMap<>());
    }

    private Scope(Map<String, JsonNode> variables, Map<String, String> uuids) {
      this.variables = variables;
      this.uuids = uuids;
    }

    /** This scope and one more variable; the UUIDs stay shared with the whole case. */
    Scope with(String name, JsonNode value) {
      Map<String, JsonNode> more = new HashMap<>(variables);
      more.put(name, value);
      return new Scope(more, uuids);
    }

    /** Sets a variable for every later step of the case. */
    void put(String name, JsonNode value) {
      variables.put(name, value);
    }
  }

  private Values() {}

  static JsonNode eval(JsonNode node, Scope scope) {
    if (node == null) {
      return null;
    }
    if (node.isString()) {
      return text(node.asString(), scope);
    }
    if (node.isArray()) {
      ArrayNode out = NODES.arrayNode();
      node.forEach(item -> out.add(eval(item, scope)));
      return out;
    }
    if (node.isObject()) {
      if (node.has("$for")) {
        return loop(node, scope);
      }
      if (node.has("$repeat")) {
        return NODES.stringNode(eval(node.get("$repeat"), scope).asString().repeat(node.path("times").asInt()));
      }
      if (node.has("$concat")) {
        ArrayNode out = NODES.arrayNode();
        for (JsonNode part : node.get("$concat")) {
          eval(part, scope).forEach(out::add);
        }
        return out;
      }
      if (node.has("$nfc") || node.has("$nfd")) {
        boolean nfd = node.has("$nfd");
        String in = eval(node.get(nfd ? "$nfd" : "$nfc"), scope).asString();
        String out = Normalizer.normalize(in, nfd ? Normalizer.Form.NFD : Normalizer.Form.NFC);
        if (nfd && out.equals(in)) {
          throw new IllegalArgumentException("the NFD form of " + in + " is the text itself: a case using it would prove nothing");
        }
        return NODES.stringNode(out);
      }
      ObjectNode out = NODES.objectNode();
      node.properties().forEach(e -> out.set(e.getKey(), eval(e.getValue(), scope)));
      return out;
    }
    return node;
  }

  /** {"$for": i, "from": 0, "to": 25, "each": …}: a list, with "${i}" from "from" to "to" − 1. */
  private static JsonNode loop(JsonNode node, Scope scope) {
    String name = node.get("$for").asString();
    ArrayNode out = NODES.arrayNode();
    for (int i = node.path("from").asInt(0); i < node.path("to").asInt(); i++) {
      out.add(eval(node.get("each"), scope.with(name, NODES.numberNode(i))));
    }
    return out;
  }

  private static JsonNode text(String s, Scope scope) {
    Matcher whole = REFERENCE.matcher(s);
    if (whole.matches()) {
      return resolve(whole.group(1), scope);
    }
    Matcher m = REFERENCE.matcher(s);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      JsonNode value = resolve(m.group(1), scope);
      m.appendReplacement(out, Matcher.quoteReplacement(value.isString() ? value.asString() : value.toString()));
    }
    m.appendTail(out);
    return NODES.stringNode(out.toString());
  }

  /** "uuid" (a new one), "uuid:label", "traceid:label", "spanid:label", "name:%04d" (a number, formatted) or "name.key.0.*.key". */
  private static JsonNode resolve(String expression, Scope scope) {
    if (expression.equals("uuid")) {
      return NODES.stringNode(UUID.randomUUID().toString());
    }
    if (expression.startsWith("uuid:")) {
      return NODES.stringNode(scope.uuids.computeIfAbsent(
          text(expression.substring(5), scope).asString(), label -> UUID.randomUUID().toString()));
    }
    int colon = expression.indexOf(':');
    if (colon > 0 && HEX_IDS.containsKey(expression.substring(0, colon))) {
      int bytes = HEX_IDS.get(expression.substring(0, colon));
      String key = expression.substring(0, colon) + ":" + text(expression.substring(colon + 1), scope).asString();
      return NODES.stringNode(scope.uuids.computeIfAbsent(key, k -> hexId(bytes)));
    }
    if (colon > 0) {
      JsonNode number = resolve(expression.substring(0, colon), scope);
      return NODES.stringNode(String.format(expression.substring(colon + 1), number.asLong()));
    }
    String[] path = expression.split("\\.");
    JsonNode value = scope.variables.get(path[0]);
    if (value == null) {
      throw new IllegalArgumentException("${" + expression + "}: nothing is called " + path[0] + " here");
    }
    return walk(value, path, 1, expression);
  }

  /** Random lower-case hex of that many bytes, never all zeros (W3C: an all-zero id is invalid). */
  private static String hexId(int bytes) {
    byte[] id = new byte[bytes];
    do {
      RANDOM.nextBytes(id);
    } while (java.util.Arrays.equals(id, new byte[bytes]));
    return HexFormat.of().formatHex(id);
  }

  /** The rest of a path from segment i: an object key, an array index, or "*" (every element). */
  private static JsonNode walk(JsonNode value, String[] path, int i, String expression) {
    if (i == path.length) {
      return value;
    }
    if (path[i].equals("*")) {
      if (!value.isArray()) {
        throw new IllegalArgumentException("${" + expression + "}: * applied to a non-list " + abbreviate(value));
      }
      ArrayNode out = NODES.arrayNode();
      value.forEach(item -> out.add(walk(item, path, i + 1, expression)));
      return out;
    }
    JsonNode next = value.isArray() && path[i].chars().allMatch(Character::isDigit)
        ? value.get(Integer.parseInt(path[i]))
        : value.get(path[i]);
    if (next == null) {
      throw new IllegalArgumentException("${" + expression + "}: no " + path[i] + " in " + abbreviate(value));
    }
    return walk(next, path, i + 1, expression);
  }

  static String abbreviate(JsonNode value) {
    String s = String.valueOf(value);
    return s.length() <= 300 ? s : s.substring(0, 300) + "…";
  }
}
