package com.acme.compat.harness;

import com.acme.auth.v1.AuthServiceProto;
import com.acme.person.v1.PersonServiceProto;
import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Descriptors.MethodDescriptor;
import com.google.protobuf.Descriptors.ServiceDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The two schemas a case can speak: today's (the Java SDK's descriptors, or for a client built on
 * a released SDK, that release's descriptor set) and the newer one (schema-next/, a descriptor
 * set), so a step of a newer client sends fields today's SDKs do not know. Messages cross as
 * protobuf bytes; the harness reads and writes them as JSON through the descriptors, never
 * through hand-written field lists — so a released client's requests are encoded, and its
 * answers read, with exactly the fields and numbers its release had.
 */
final class Schemas {
  /** Which server serves which service. */
  static final Map<String, String> SERVERS = Map.of(
      "acme.person.v1.PersonService", "person-spring",
      "acme.auth.v1.AuthService", "auth-node");

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** A case needs a method or field that a release's schema does not have: it cannot run there. */
  static final class NotInRelease extends RuntimeException {
    NotInRelease(String message) {
      super(message);
    }
  }

  private final Map<String, ServiceDescriptor> current = new HashMap<>();
  private final Map<String, ServiceDescriptor> next;
  private final String release;

  /** Today's schema and the newer one. */
  Schemas(Path nextDescriptors) throws IOException, DescriptorValidationException {
    for (FileDescriptor file : List.of(PersonServiceProto.getDescriptor(), AuthServiceProto.getDescriptor())) {
      file.getServices().forEach(s -> current.put(s.getName(), s));
    }
    this.next = services(nextDescriptors);
    this.release = null;
  }

  /** A release's schema (its tag's descriptor set) in place of today's, and the newer one. */
  Schemas(String release, Path releaseDescriptors, Path nextDescriptors) throws IOException, DescriptorValidationException {
    this.current.putAll(services(releaseDescriptors));
    this.next = services(nextDescriptors);
    this.release = release;
  }

  /** The release whose schema stands for today's, or null. */
  String release() {
    return release;
  }

  private static Map<String, ServiceDescriptor> services(Path descriptorSet) throws IOException, DescriptorValidationException {
    Map<String, FileDescriptorProto> protos = new HashMap<>();
    FileDescriptorSet.parseFrom(Files.readAllBytes(descriptorSet)).getFileList().forEach(f -> protos.put(f.getName(), f));
    Map<String, FileDescriptor> built = new HashMap<>();
    Map<String, ServiceDescriptor> services = new HashMap<>();
    for (String name : protos.keySet()) {
      build(name, protos, built).getServices().forEach(s -> services.put(s.getName(), s));
    }
    return services;
  }

  /** FileDescriptor.buildFrom needs a file's imports built first: build them depth-first. */
  private static FileDescriptor build(String name, Map<String, FileDescriptorProto> protos, Map<String, FileDescriptor> built)
      throws DescriptorValidationException {
    FileDescriptor done = built.get(name);
    if (done != null) {
      return done;
    }
    FileDescriptorProto proto = protos.get(name);
    if (proto == null) {
      throw new IllegalStateException("a descriptor set lacks " + name + " (built without imports?)");
    }
    FileDescriptor[] deps = new FileDescriptor[proto.getDependencyCount()];
    for (int i = 0; i < deps.length; i++) {
      deps[i] = build(proto.getDependency(i), protos, built);
    }
    FileDescriptor file = FileDescriptor.buildFrom(proto, deps);
    built.put(name, file);
    return file;
  }

  /** "PersonService/RegisterPerson" in today's schema or the newer one. */
  MethodDescriptor method(String call, boolean newer) {
    String[] parts = call.split("/");
    ServiceDescriptor service = parts.length == 2 ? (newer ? next : current).get(parts[0]) : null;
    MethodDescriptor method = service == null ? null : service.findMethodByName(parts[1]);
    if (method == null && !newer && release != null) {
      throw new NotInRelease("no method " + call + " in " + release);
    }
    if (method == null) {
      throw new IllegalArgumentException("no method " + call + " in " + (newer ? "the newer" : "today's") + " schema");
    }
    return method;
  }

  static String server(MethodDescriptor method) {
    return SERVERS.get(method.getService().getFullName());
  }

  static ByteString encode(Descriptor type, JsonNode json) {
    DynamicMessage.Builder builder = DynamicMessage.newBuilder(type);
    try {
      JsonFormat.parser().merge(JSON.writeValueAsString(json), builder);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("not a " + type.getFullName() + ": " + Values.abbreviate(json) + " (" + e.getMessage() + ")");
    }
    return builder.build().toByteString();
  }

  static JsonNode decode(Descriptor type, ByteString bytes) throws InvalidProtocolBufferException {
    return JSON.readTree(JsonFormat.printer().print(DynamicMessage.parseFrom(type, bytes)));
  }
}
