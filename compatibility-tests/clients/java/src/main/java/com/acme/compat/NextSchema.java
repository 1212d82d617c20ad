package com.acme.compat;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Descriptors.MethodDescriptor;
import com.google.protobuf.DynamicMessage;
import io.grpc.protobuf.ProtoUtils;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The newer schema (COMPAT_NEXT_DESCRIPTORS) at run time: its FileDescriptorSet built into
 * descriptors, and gRPC methods whose messages are DynamicMessages of it. That is how a client
 * compiled against a later version of the contracts looks to a server still on this one.
 */
final class NextSchema {
  private final Map<String, FileDescriptorProto> protos = new HashMap<>();
  private final Map<String, FileDescriptor> built = new HashMap<>();

  private NextSchema(FileDescriptorSet set) throws DescriptorValidationException {
    set.getFileList().forEach(f -> protos.put(f.getName(), f));
    for (String name : protos.keySet()) {
      build(name);
    }
  }

  static NextSchema load(String path) throws IOException, DescriptorValidationException {
    return new NextSchema(FileDescriptorSet.parseFrom(Files.readAllBytes(Path.of(path))));
  }

  /** buildFrom needs a file's imports built first: build them depth-first. */
  private FileDescriptor build(String name) throws DescriptorValidationException {
    FileDescriptor done = built.get(name);
    if (done != null) {
      return done;
    }
    FileDescriptorProto proto = protos.get(name);
    Checks.that(proto != null, "COMPAT_NEXT_DESCRIPTORS lacks " + name + " (built without imports?)");
    FileDescriptor[] deps = new FileDescriptor[proto.getDependencyCount()];
    for (int i = 0; i < deps.length; i++) {
      deps[i] = build(proto.getDependency(i));
    }
    FileDescriptor file = FileDescriptor.buildFrom(proto, deps);
    built.put(name, file);
    return file;
  }

  Descriptor message(String fullName) {
    for (FileDescriptor file : built.values()) {
      for (Descriptor d : file.getMessageTypes()) {
        if (d.getFullName().equals(fullName)) {
          return d;
        }
      }
    }
    throw new CheckFailed("the newer schema has no message " + fullName);
  }

  /** The real method path (/package.Service/Method) with newer-schema marshallers. */
  io.grpc.MethodDescriptor<DynamicMessage, DynamicMessage> unary(String service, String method) {
    for (FileDescriptor file : built.values()) {
      var s = file.findServiceByName(service.substring(service.lastIndexOf('.') + 1));
      if (s != null && s.getFullName().equals(service)) {
        MethodDescriptor m = s.findMethodByName(method);
        Checks.that(m != null, "the newer schema has no method " + service + "/" + method);
        return io.grpc.MethodDescriptor.<DynamicMessage, DynamicMessage>newBuilder()
            .setType(io.grpc.MethodDescriptor.MethodType.UNARY)
            .setFullMethodName(io.grpc.MethodDescriptor.generateFullMethodName(service, method))
            .setRequestMarshaller(ProtoUtils.marshaller(DynamicMessage.getDefaultInstance(m.getInputType())))
            .setResponseMarshaller(ProtoUtils.marshaller(DynamicMessage.getDefaultInstance(m.getOutputType())))
            .build();
      }
    }
    throw new CheckFailed("the newer schema has no service " + service);
  }
}
