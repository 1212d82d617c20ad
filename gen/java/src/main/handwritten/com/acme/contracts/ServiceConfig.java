package com.acme.contracts;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The contracts' gRPC service config (gen/service-config.json, the one definition every SDK
 * ships, packed into this jar as a resource): a retry policy for the idempotent RPCs — the reads
 * and DisableUser — on UNAVAILABLE and INTERNAL (a refused or a cut stream).
 *
 * <pre>{@code
 * ManagedChannel channel = ManagedChannelBuilder.forTarget("person-spring:9090")
 *     .defaultServiceConfig(ServiceConfig.get())
 *     .enableRetry()
 *     .usePlaintext()
 *     .build();
 * }</pre>
 *
 * <p>RegisterPerson and RegisterPeople are not in it: they are idempotent only on their
 * request_id, and a service config cannot look into a request. Retry them yourself with the
 * same request_id, never without one. Login and CreateUser are not idempotent and are left out.
 */
public final class ServiceConfig {

  /** Where the build puts gen/service-config.json in the jar. */
  static final String RESOURCE = "service-config.json";

  private ServiceConfig() {}

  /** The service config as ManagedChannelBuilder.defaultServiceConfig(..) takes it. */
  public static Map<String, ?> get() {
    return toMap(parse(json()));
  }

  /** The service config's JSON text, as shipped. */
  public static String json() {
    try (InputStream in = ServiceConfig.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from the acme-contracts jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("read " + RESOURCE, e);
    }
  }

  private static Struct parse(String json) {
    Struct.Builder config = Struct.newBuilder();
    try {
      JsonFormat.parser().merge(json, config);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(RESOURCE + " is not a JSON object", e);
    }
    return config.build();
  }

  // grpc-java wants the JSON as plain Java values: Map, List, String, Double, Boolean, null.
  private static Map<String, Object> toMap(Struct struct) {
    Map<String, Object> map = new LinkedHashMap<>();
    struct.getFieldsMap().forEach((key, value) -> map.put(key, toJava(value)));
    return map;
  }

  private static Object toJava(Value value) {
    return switch (value.getKindCase()) {
      case STRUCT_VALUE -> toMap(value.getStructValue());
      case LIST_VALUE -> value.getListValue().getValuesList().stream().map(ServiceConfig::toJava).toList();
      case STRING_VALUE -> value.getStringValue();
      case NUMBER_VALUE -> value.getNumberValue();
      case BOOL_VALUE -> value.getBoolValue();
      case NULL_VALUE, KIND_NOT_SET -> null;
    };
  }

}
