package com.acme.person;

import static org.assertj.core.api.Assertions.assertThat;

import build.buf.validate.Violations;
import com.acme.person.validation.FieldPaths;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Base64;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The REST/JSON twin over plain HTTP/1.1: same DTOs, rules, auth and error codes as gRPC. */
class RestTwinTest extends ServiceTestBase {

  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final JsonMapper json = JsonMapper.builder().build();

  @Test
  void postThenGet() throws Exception {
    String name = People.uniqueName("rest");
    HttpResponse<String> created = post(token, null,
        "{\"name\":\"" + name + "\",\"age\":41,\"hobbies\":[\"rowing\"],"
            + "\"address\":{\"city\":\"Bern\",\"zipCode\":\"3011\"}}");
    assertThat(created.statusCode()).isEqualTo(201);
    JsonNode person = json.readTree(created.body());
    String id = person.get("id").asString();
    assertThat(created.headers().firstValue("Location")).hasValue("/api/people/" + id);
    assertThat(person.get("createdAt").asString()).isNotBlank();

    HttpResponse<String> read = get(token, id);
    assertThat(read.statusCode()).isEqualTo(200);
    assertThat(json.readTree(read.body())).isEqualTo(person);
    assertThat(json.readTree(read.body()).get("address").get("zipCode").asString()).isEqualTo("3011");
  }

  @Test
  void idempotencyKeyPlaysRequestId() throws Exception {
    String name = People.uniqueName("rest-idem");
    String key = UUID.randomUUID().toString();
    String body = "{\"name\":\"" + name + "\",\"age\":1}";
    String first = post(token, key, body).body();
    assertThat(post(token, key, body).body()).isEqualTo(first);
    assertThat(rowsNamed(name)).isEqualTo(1);
    assertThat(post(token, key, "{\"name\":\"" + name + "\",\"age\":2}").statusCode()).isEqualTo(409);
  }

  @Test
  void invalidPersonIs400WithTheSameViolationsAsGrpc() throws Exception {
    HttpResponse<String> response = post(token, null, "{\"name\":\"\",\"age\":200}");
    assertThat(response.statusCode()).isEqualTo(400);
    JsonNode error = json.readTree(response.body());
    // Connect's error JSON (docs/rest-errors.md): the violations as a detail a Connect client
    // decodes from its bytes, with their JSON form beside them.
    assertThat(error.get("code").asString()).isEqualTo("invalid_argument");
    assertThat(error.get("details")).hasSize(1);
    JsonNode detail = error.get("details").get(0);
    assertThat(detail.get("type").asString()).isEqualTo("buf.validate.Violations");
    Violations violations = Violations.parseFrom(Base64.getDecoder().decode(detail.get("value").asString()));
    assertThat(violations.getViolationsList().stream().map(v -> FieldPaths.toText(v.getField()) + "/" + v.getRuleId()))
        .containsExactlyInAnyOrder("person.name/string.min_len", "person.age/int32.gte_lte");
    assertThat(detail.get("debug").get("violations").findValuesAsString("ruleId"))
        .containsExactlyInAnyOrder("string.min_len", "int32.gte_lte");
  }

  @Test
  void serverFieldsInTheBodyAre400() throws Exception {
    HttpResponse<String> response =
        post(token, null, "{\"id\":\"" + UUID.randomUUID() + "\",\"name\":\"n\",\"age\":2}");
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body()).contains("person.server_fields_unset");
  }

  @Test
  void malformedJsonIs400() throws Exception {
    assertThat(post(token, null, "{\"name\":").statusCode()).isEqualTo(400);
  }

  @Test
  void missingOrInvalidTokenIs401() throws Exception {
    assertThat(post(null, null, "{\"name\":\"n\",\"age\":2}").statusCode()).isEqualTo(401);
    HttpResponse<String> forged = get("forged", UUID.randomUUID().toString());
    assertThat(forged.statusCode()).isEqualTo(401);
    assertThat(json.readTree(forged.body()).get("code").asString()).isEqualTo("unauthenticated");
  }

  @Test
  void unknownIdIs404AndMalformedIdIs400() throws Exception {
    assertThat(get(token, UUID.randomUUID().toString()).statusCode()).isEqualTo(404);
    assertThat(get(token, "nope").statusCode()).isEqualTo(400);
  }

  @Test
  void silentAuthServiceIs503() throws Exception {
    assertThat(get(StandInAuthService.HANG, UUID.randomUUID().toString()).statusCode()).isEqualTo(503);
  }

  private HttpResponse<String> post(String bearer, String idempotencyKey, String body) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri("/api/people"))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (bearer != null) {
      request.header("Authorization", "Bearer " + bearer);
    }
    if (idempotencyKey != null) {
      request.header("Idempotency-Key", idempotencyKey);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String bearer, String id) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri("/api/people/" + id)).GET();
    if (bearer != null) {
      request.header("Authorization", "Bearer " + bearer);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private URI uri(String path) {
    return URI.create("http://localhost:" + restPort + path);
  }
}
