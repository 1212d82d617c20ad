package com.acme.compat;

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import com.google.protobuf.DiscardUnknownFieldsParser;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * golden-encode: the SDK against the checked-in vectors, writing what it produced into DIR for
 * the other languages' golden-decode.
 */
final class GoldenEncode {
  private final List<Vectors.Vector> vectors;
  private final Path out;

  GoldenEncode(List<Vectors.Vector> vectors, Path out) {
    this.vectors = vectors;
    this.out = out;
  }

  /** JSON → message → bytes must be exactly the vector's binary. */
  void binary() throws Exception {
    List<String> differ = new ArrayList<>();
    int checked = 0;
    for (Vectors.Vector v : vectors) {
      if (v.unknown()) {
        continue;
      }
      checked++;
      try {
        byte[] encoded = Vectors.fromJson(v).toByteArray();
        Files.write(out.resolve(v.name() + ".binpb"), encoded);
        if (!Arrays.equals(v.binary(), encoded)) {
          differ.add(v.name() + ": encoded " + Vectors.hex(encoded));
        }
      } catch (Exception e) {
        differ.add(v.name() + ": " + e.getMessage());
      }
    }
    Checks.that(checked > 0, "no vector without unknown fields");
    Checks.that(differ.isEmpty(), String.join("; ", differ));
  }

  /** bytes → message → printed JSON (defaults) must equal the vector's JSON as a value. */
  void json() throws Exception {
    List<String> differ = new ArrayList<>();
    for (Vectors.Vector v : vectors) {
      try {
        String printed = JsonFormat.printer().print(Vectors.fromBinary(v, v.binary()));
        Files.writeString(out.resolve(v.name() + ".json"), printed, StandardCharsets.UTF_8);
        JsonElement value = JsonParser.parseString(printed);
        if (!value.equals(v.json())) {
          differ.add(v.name() + ": printed " + Checks.show(value));
        }
      } catch (Exception e) {
        differ.add(v.name() + ": " + e.getMessage());
      }
    }
    Checks.that(differ.isEmpty(), String.join("; ", differ));
  }

  /** Bytes of the newer schema survive decode + encode; the known part equals the JSON. */
  void unknownFields() throws Exception {
    List<String> differ = new ArrayList<>();
    int checked = 0;
    for (Vectors.Vector v : vectors) {
      if (!v.unknown()) {
        continue;
      }
      checked++;
      try {
        byte[] relayed = Vectors.fromBinary(v, v.binary()).toByteArray();
        Files.write(out.resolve(v.name() + ".binpb"), relayed);
        if (!Arrays.equals(v.binary(), relayed)) {
          differ.add(v.name() + ": re-encoded " + Vectors.hex(relayed));
          continue;
        }
        Message known = DiscardUnknownFieldsParser.wrap(Vectors.prototype(v).getParserForType()).parseFrom(v.binary());
        Message expected = Vectors.fromJson(v);
        if (!known.equals(expected)) {
          differ.add(v.name() + ": known fields " + Checks.show(known) + ", JSON says " + Checks.show(expected));
        }
      } catch (Exception e) {
        differ.add(v.name() + ": " + e.getMessage());
      }
    }
    Checks.that(checked > 0, "no vector with unknown fields");
    Checks.that(differ.isEmpty(), String.join("; ", differ));
  }
}
