package com.acme.compat.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.auth.v1.AuthServiceProto;
import com.acme.person.v1.PersonServiceProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.FileDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client built on a released SDK speaks its release's schema: what the release lacks is "not
 * run" (no verdict, listed), never a pass and never a failure of the client.
 */
class ReleasedSchemaTest {

  /** Today's contracts as a descriptor set, with PersonService's GetPerson removed: an older release. */
  private static Path olderRelease(Path dir) throws Exception {
    Map<String, FileDescriptorProto> files = new LinkedHashMap<>();
    for (FileDescriptor f : List.of(PersonServiceProto.getDescriptor(), AuthServiceProto.getDescriptor())) {
      collect(f, files);
    }
    FileDescriptorProto service = files.get("acme/person/v1/person_service.proto");
    FileDescriptorProto.Builder older = service.toBuilder();
    var methods = older.getServiceBuilder(0).getMethodList().stream().filter(m -> !m.getName().equals("GetPerson")).toList();
    older.getServiceBuilder(0).clearMethod().addAllMethod(methods);
    files.put(service.getName(), older.build());
    Path set = dir.resolve("older.binpb");
    Files.write(set, FileDescriptorSet.newBuilder().addAllFile(files.values()).build().toByteArray());
    return set;
  }

  private static void collect(FileDescriptor file, Map<String, FileDescriptorProto> into) {
    for (FileDescriptor dep : file.getDependencies()) {
      collect(dep, into);
    }
    into.putIfAbsent(file.getName(), file.toProto());
  }

  @Test
  void aMethodTheReleaseLacksIsNotInRelease(@TempDir Path dir) throws Exception {
    Path older = olderRelease(dir);
    Schemas schemas = new Schemas("v0.9.0", older, older);
    assertEquals("RegisterPerson", schemas.method("PersonService/RegisterPerson", false).getName());
    Schemas.NotInRelease e = assertThrows(Schemas.NotInRelease.class, () -> schemas.method("PersonService/GetPerson", false));
    assertEquals("no method PersonService/GetPerson in v0.9.0", e.getMessage());
  }

  @Test
  void todaysSchemaStillCallsAnUnknownMethodAnError(@TempDir Path dir) throws Exception {
    Schemas schemas = new Schemas(olderRelease(dir));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> schemas.method("PersonService/NoSuchMethod", false));
    assertEquals("no method PersonService/NoSuchMethod in today's schema", e.getMessage());
  }

  @Test
  void casesNotRunAreListedAndCountNoVerdict() {
    Case ran = new Case("java@0.9.0", "person-spring", "grpc", "unary", true, "", 1);
    Matrix matrix = new Matrix(List.of(ran), new ExpectedFailures(Map.of()),
        List.of("java@0.9.0/person-spring/grpc/get: no method PersonService/GetPerson in v0.9.0"));
    assertTrue(matrix.ok());
    String md = matrix.markdown("t");
    assertTrue(md.contains("1 cases: 1 pass"), md);
    assertTrue(md.contains("## Not run: what the client cannot do, or its release lacks"), md);
    assertTrue(md.contains("`java@0.9.0/person-spring/grpc/get: no method PersonService/GetPerson in v0.9.0`"), md);
  }

  @Test
  void aReleasedOnlyRunJudgesOnlyReleasedEntries() {
    ExpectedFailures all = new ExpectedFailures(Map.of(
        "java/person-spring/grpc/unary", "today's", "java@0.9.0/person-spring/grpc/unary", "the release's"));
    assertEquals(Map.of("java@0.9.0/person-spring/grpc/unary", "the release's"), all.released().reasons());
  }
}
