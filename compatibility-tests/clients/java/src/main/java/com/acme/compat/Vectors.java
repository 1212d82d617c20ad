package com.acme.compat;

import com.acme.auth.v1.CreateUserRequest;
import com.acme.auth.v1.CreateUserResponse;
import com.acme.auth.v1.DisableUserRequest;
import com.acme.auth.v1.DisableUserResponse;
import com.acme.auth.v1.ListUsersRequest;
import com.acme.auth.v1.ListUsersResponse;
import com.acme.auth.v1.LoginRequest;
import com.acme.auth.v1.LoginResponse;
import com.acme.auth.v1.User;
import com.acme.auth.v1.ValidateTokenRequest;
import com.acme.auth.v1.ValidateTokenResponse;
import com.acme.person.v1.Address;
import com.acme.person.v1.GetPersonRequest;
import com.acme.person.v1.GetPersonResponse;
import com.acme.person.v1.ListPeopleRequest;
import com.acme.person.v1.ListPeopleResponse;
import com.acme.person.v1.Person;
import com.acme.person.v1.RegisterPeopleRequest;
import com.acme.person.v1.RegisterPeopleResponse;
import com.acme.person.v1.RegisterPersonRequest;
import com.acme.person.v1.RegisterPersonResponse;
import com.acme.person.v1.SyncPeopleError;
import com.acme.person.v1.SyncPeopleRequest;
import com.acme.person.v1.SyncPeopleResponse;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** golden/vectors.json, and the SDK's generated message types the vectors name. */
final class Vectors {
  /** One vector: its JSON form (as a value) and its exact binary encoding. */
  record Vector(String name, String type, JsonObject json, byte[] binary, boolean unknown) {}

  /** Every message of the SDK, by full name; keyed by the descriptors, so no name is typed. */
  private static final Map<String, Message> TYPES =
      Stream.<Message>of(
              Address.getDefaultInstance(), Person.getDefaultInstance(),
              RegisterPersonRequest.getDefaultInstance(), RegisterPersonResponse.getDefaultInstance(),
              RegisterPeopleRequest.getDefaultInstance(), RegisterPeopleResponse.getDefaultInstance(),
              GetPersonRequest.getDefaultInstance(), GetPersonResponse.getDefaultInstance(),
              ListPeopleRequest.getDefaultInstance(), ListPeopleResponse.getDefaultInstance(),
              SyncPeopleRequest.getDefaultInstance(), SyncPeopleResponse.getDefaultInstance(),
              SyncPeopleError.getDefaultInstance(), User.getDefaultInstance(),
              LoginRequest.getDefaultInstance(), LoginResponse.getDefaultInstance(),
              ValidateTokenRequest.getDefaultInstance(), ValidateTokenResponse.getDefaultInstance(),
              CreateUserRequest.getDefaultInstance(), CreateUserResponse.getDefaultInstance(),
              DisableUserRequest.getDefaultInstance(), DisableUserResponse.getDefaultInstance(),
              ListUsersRequest.getDefaultInstance(), ListUsersResponse.getDefaultInstance())
          .collect(Collectors.toMap(m -> m.getDescriptorForType().getFullName(), Function.identity()));

  private Vectors() {}

  static List<Vector> load(Path file) throws IOException {
    List<Vector> vectors = new ArrayList<>();
    for (JsonElement e : JsonParser.parseString(Files.readString(file, StandardCharsets.UTF_8)).getAsJsonArray()) {
      JsonObject v = e.getAsJsonObject();
      vectors.add(new Vector(
          v.get("name").getAsString(),
          v.get("type").getAsString(),
          v.getAsJsonObject("json"),
          HexFormat.of().parseHex(v.get("binary").getAsString()),
          v.has("unknown") && v.get("unknown").getAsBoolean()));
    }
    Checks.that(!vectors.isEmpty(), file + " holds no vectors");
    return vectors;
  }

  static Message prototype(Vector v) {
    Message m = TYPES.get(v.type());
    Checks.that(m != null, "the SDK has no message " + v.type());
    return m;
  }

  /** The vector's JSON through the SDK's JSON parser (defaults). */
  static Message fromJson(Vector v) throws InvalidProtocolBufferException {
    return parseJson(v, v.json().toString());
  }

  static Message parseJson(Vector v, String json) throws InvalidProtocolBufferException {
    Message.Builder builder = prototype(v).newBuilderForType();
    JsonFormat.parser().merge(json, builder);
    return builder.build();
  }

  /** Binary through the SDK's parser; unknown fields are kept, as a relay must. */
  static Message fromBinary(Vector v, byte[] binary) throws InvalidProtocolBufferException {
    return prototype(v).getParserForType().parseFrom(binary);
  }

  static String hex(byte[] bytes) {
    String h = HexFormat.of().formatHex(bytes);
    return h.length() <= 120 ? h : h.substring(0, 120) + "…";
  }
}
