package com.acme.compat;

import com.google.protobuf.Message;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** golden-decode: what a peer's golden-encode wrote, read back by this SDK. */
final class GoldenDecode {
  private final List<Vectors.Vector> vectors;
  private final Path in;

  GoldenDecode(List<Vectors.Vector> vectors, Path in) {
    this.vectors = vectors;
    this.in = in;
  }

  void run() throws IOException {
    Map<String, Vectors.Vector> byName =
        vectors.stream().collect(Collectors.toMap(Vectors.Vector::name, Function.identity()));
    List<String> differ = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    List<Path> files;
    try (Stream<Path> listing = Files.list(in)) {
      files = listing.filter(Files::isRegularFile).sorted().toList();
    }
    for (Path file : files) {
      String fileName = file.getFileName().toString();
      boolean binary = fileName.endsWith(".binpb");
      if (!binary && !fileName.endsWith(".json")) {
        continue;
      }
      String name = fileName.substring(0, fileName.lastIndexOf('.'));
      Vectors.Vector v = byName.get(name);
      if (v == null) {
        differ.add(fileName + ": no such vector");
        continue;
      }
      seen.add(fileName);
      try {
        String problem = binary ? checkBinary(v, Files.readAllBytes(file)) : checkJson(v, Files.readString(file, StandardCharsets.UTF_8));
        if (problem != null) {
          differ.add(fileName + ": " + problem);
        }
      } catch (Exception e) {
        differ.add(fileName + ": " + e.getMessage());
      }
    }
    // Every vector must have come back in both forms, or a peer writing nothing would pass.
    for (Vectors.Vector v : vectors) {
      for (String fileName : List.of(v.name() + ".binpb", v.name() + ".json")) {
        if (!seen.contains(fileName)) {
          differ.add(fileName + ": missing");
        }
      }
    }
    Checks.that(differ.isEmpty(), String.join("; ", differ));
  }

  /** A message equal to the vector's JSON; for newer-schema vectors, the exact bytes on re-encoding. */
  private static String checkBinary(Vectors.Vector v, byte[] bytes) throws Exception {
    Message decoded = Vectors.fromBinary(v, bytes);
    if (v.unknown()) {
      byte[] reencoded = decoded.toByteArray();
      return Arrays.equals(v.binary(), reencoded) ? null : "re-encodes to " + Vectors.hex(reencoded);
    }
    Message expected = Vectors.fromJson(v);
    return decoded.equals(expected) ? null : "decodes to " + Checks.show(decoded) + ", expected " + Checks.show(expected);
  }

  private static String checkJson(Vectors.Vector v, String json) throws Exception {
    Message parsed = Vectors.parseJson(v, json);
    Message expected = Vectors.fromJson(v);
    return parsed.equals(expected) ? null : "parses to " + Checks.show(parsed) + ", expected " + Checks.show(expected);
  }
}
