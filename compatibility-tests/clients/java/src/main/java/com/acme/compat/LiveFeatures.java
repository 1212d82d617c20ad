package com.acme.compat;

import java.util.LinkedHashMap;
import java.util.Map;

/** Which feature names each server offers, and the code that checks each (README). */
final class LiveFeatures {
  private LiveFeatures() {}

  static Map<String, Feature> forServer(String server, Clients clients) {
    Map<String, Feature> features = new LinkedHashMap<>();
    switch (server) {
      case "person-spring" -> {
        var shapes = new PersonCallShapes(clients);
        var failures = new PersonFailures(clients);
        var data = new PersonData(clients);
        features.put("unary", shapes::unary);
        features.put("client-stream", shapes::clientStream);
        features.put("server-stream", shapes::serverStream);
        features.put("bidi", shapes::bidi);
        features.put("auth-metadata", failures::authMetadata);
        features.put("deadline", failures::deadline);
        features.put("cancel-mid-stream", failures::cancelMidStream);
        features.put("error-details", failures::errorDetails);
        features.put("large-message", data::largeMessage);
        features.put("unicode", data::unicode);
        features.put("field-presence", data::fieldPresence);
        features.put("unknown-fields", new UnknownFields(clients)::person);
      }
      case "auth-node" -> {
        var auth = new AuthFeatures(clients);
        features.put("unary", auth::unary);
        features.put("auth-metadata", auth::authMetadata);
        features.put("deadline", auth::deadline);
        features.put("error-details", auth::errorDetails);
        features.put("large-message", auth::largeMessage);
        features.put("unicode", auth::unicode);
        features.put("unknown-fields", new UnknownFields(clients)::auth);
      }
      default -> throw new IllegalArgumentException("unknown server " + server);
    }
    return features;
  }
}
