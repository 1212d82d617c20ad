package com.acme.compat;

import com.acme.auth.v1.ValidateTokenRequest;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.stub.ClientCalls;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * unknown-fields on both servers: a client of the newer schema (Person.nickname = 7,
 * LoginRequest.device_name = 3) calling servers built from the current one.
 */
final class UnknownFields {
  private static final String PERSON_SERVICE = "acme.person.v1.PersonService";
  private final Clients clients;

  UnknownFields(Clients clients) {
    this.clients = clients;
  }

  private NextSchema next() throws Exception {
    return NextSchema.load(Env.require(clients.env.nextDescriptors(), "COMPAT_NEXT_DESCRIPTORS"));
  }

  private static DynamicMessage call(Channel channel, io.grpc.MethodDescriptor<DynamicMessage, DynamicMessage> method, DynamicMessage request) {
    return ClientCalls.blockingUnaryCall(
        channel, method, CallOptions.DEFAULT.withDeadlineAfter(Clients.CALL_SECONDS, TimeUnit.SECONDS), request);
  }

  private static DynamicMessage.Builder builder(Descriptor type) {
    return DynamicMessage.newBuilder(type);
  }

  private static FieldDescriptor field(Descriptor type, String name) {
    FieldDescriptor f = type.findFieldByName(name);
    Checks.that(f != null, "the newer schema has no field " + type.getFullName() + "." + name);
    return f;
  }

  void person() throws Exception {
    NextSchema next = next();
    Descriptor personType = next.message("acme.person.v1.Person");
    Descriptor addressType = next.message("acme.person.v1.Address");
    Descriptor requestType = next.message("acme.person.v1.RegisterPersonRequest");
    Descriptor getType = next.message("acme.person.v1.GetPersonRequest");
    FieldDescriptor nickname = field(personType, "nickname");

    DynamicMessage sent = builder(personType)
        .setField(field(personType, "name"), clients.run() + " next")
        .setField(field(personType, "age"), 33)
        .addRepeatedField(field(personType, "hobbies"), "relaying")
        .setField(field(personType, "address"), builder(addressType)
            .setField(field(addressType, "city"), "Bern")
            .setField(field(addressType, "zip_code"), "3000")
            .build())
        .setField(nickname, "Nicky \uD83D\uDE80")
        .build();
    DynamicMessage request = builder(requestType)
        .setField(field(requestType, "request_id"), UUID.randomUUID().toString())
        .setField(field(requestType, "person"), sent)
        .build();

    Channel channel = Clients.withBearer(clients.personChannel(), clients.adminToken());
    DynamicMessage registered = call(channel, next.unary(PERSON_SERVICE, "RegisterPerson"), request);
    DynamicMessage stored = (DynamicMessage) registered.getField(field(registered.getDescriptorForType(), "person"));
    expectAllButNickname(sent, stored, "RegisterPerson");

    String id = (String) stored.getField(field(personType, "id"));
    DynamicMessage got = call(channel, next.unary(PERSON_SERVICE, "GetPerson"),
        builder(getType).setField(field(getType, "id"), id).build());
    DynamicMessage fetched = (DynamicMessage) got.getField(field(got.getDescriptorForType(), "person"));
    expectAllButNickname(sent, fetched, "GetPerson");
    Checks.equal(stored, fetched, "GetPerson against RegisterPerson's answer");
  }

  /** The registry keeps only the fields of its own version: all sent but the nickname. */
  private static void expectAllButNickname(DynamicMessage sent, DynamicMessage got, String what) {
    Descriptor type = sent.getDescriptorForType();
    FieldDescriptor nickname = field(type, "nickname");
    Checks.that(!got.hasField(nickname), what + ": nickname came back as " + Checks.show(got.getField(nickname)));
    Checks.uuid((String) got.getField(field(type, "id")), what + " id");
    Checks.that(got.hasField(field(type, "created_at")), what + ": created_at is not set");
    DynamicMessage known = got.toBuilder().clearField(field(type, "id")).clearField(field(type, "created_at")).build();
    Checks.equal(sent.toBuilder().clearField(nickname).build(), known, what + " (besides id, created_at and nickname)");
  }

  void auth() throws Exception {
    NextSchema next = next();
    Descriptor loginType = next.message("acme.auth.v1.LoginRequest");
    DynamicMessage login = builder(loginType)
        .setField(field(loginType, "username"), clients.adminUsername())
        .setField(field(loginType, "password"), Env.require(clients.env.adminPassword(), "AUTH_ADMIN_PASSWORD"))
        .setField(field(loginType, "device_name"), "compat " + clients.run())
        .build();
    DynamicMessage answer = call(clients.authChannel(), next.unary("acme.auth.v1.AuthService", "Login"), login);
    String token = (String) answer.getField(field(answer.getDescriptorForType(), "token"));
    Checks.that(!token.isEmpty(), "Login of the newer schema returned no token");
    String subject = clients.auth().validateToken(ValidateTokenRequest.newBuilder().setToken(token).build()).getSubject();
    Checks.equal(clients.adminUsername(), subject, "subject ValidateToken reads from that token");
  }
}
