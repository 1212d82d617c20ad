package com.acme.compat.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A trace step's verdict (TraceStep.judge) on spans as Zipkin's API gives them (names in lower
 * case): the right tree passes, and each way of being wrong — a parent, a status, a missing or
 * doubled span, another trace's span — fails with what differs. And the trace context ids.
 */
class TraceStepTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String CALLER = "00f067aa0ba902b7";

  private static final String EXPECTED = """
      {"server": {"service": "person-spring", "kind": "SERVER", "name": "acme.person.v1.PersonService/GetPerson",
                  "parent": "%s", "tags": {"rpc.grpc.status_code": "0"}},
       "check":  {"service": "person-spring", "kind": "CLIENT", "name": "acme.auth.v1.AuthService/ValidateToken",
                  "parent": "server", "tags": {"rpc.grpc.status_code": "0"}},
       "auth":   {"service": "auth-node", "kind": "SERVER", "name": "acme.auth.v1.AuthService/ValidateToken",
                  "parent": "check", "tags": {"rpc.grpc.status_code": "0"}}}
      """.formatted(CALLER);

  private static String span(String id, String parent, String service, String kind, String name, String status) {
    return """
        {"traceId": "%s", "id": "%s", "parentId": "%s", "kind": "%s", "name": "%s",
         "localEndpoint": {"serviceName": "%s"}, "tags": {"rpc.grpc.status_code": "%s"}}
        """.formatted(TRACE, id, parent, kind, name, service, status);
  }

  private static List<String> judge(String... spans) {
    return TraceStep.judge(TRACE, JSON.readTree(EXPECTED), JSON.readTree("[" + String.join(",", spans) + "]"));
  }

  private static final String SERVER = span("a1", CALLER, "person-spring", "SERVER", "acme.person.v1.personservice/getperson", "0");
  private static final String CHECK = span("b2", "a1", "person-spring", "CLIENT", "acme.auth.v1.authservice/validatetoken", "0");
  private static final String AUTH = span("c3", "b2", "auth-node", "SERVER", "acme.auth.v1.authservice/validatetoken", "0");
  private static final String INSIDE = span("d4", "c3", "auth-node", "", "validate", "");

  @Test
  void theTreeAcrossBothServicesPasses() {
    assertEquals(List.of(), judge(SERVER, CHECK, AUTH, INSIDE));
  }

  @Test
  void aServerSpanUnderAnotherParentFails() {
    String elsewhere = span("a1", "1111111111111111", "person-spring", "SERVER", "acme.person.v1.personservice/getperson", "0");
    assertEquals(List.of("server's parent is 1111111111111111, expected " + CALLER), judge(elsewhere, CHECK, AUTH));
  }

  @Test
  void authNodesSpanNotUnderTheClientSpanFails() {
    String underServer = span("c3", "a1", "auth-node", "SERVER", "acme.auth.v1.authservice/validatetoken", "0");
    assertEquals(List.of("auth's parent is a1, expected check (b2)"), judge(SERVER, CHECK, underServer));
  }

  @Test
  void anotherStatusFails() {
    String refused = span("a1", CALLER, "person-spring", "SERVER", "acme.person.v1.personservice/getperson", "16");
    assertEquals(List.of("server's tag rpc.grpc.status_code is 16, expected 0"), judge(refused, CHECK, AUTH));
  }

  @Test
  void aMissingOrDoubledSpanFails() {
    List<String> missing = judge(SERVER, CHECK);
    assertEquals(1, missing.size());
    assertTrue(missing.get(0).startsWith("0 spans auth (auth-node SERVER"), missing.get(0));
    List<String> doubled = judge(SERVER, CHECK, AUTH, span("e5", "b2", "auth-node", "SERVER", "acme.auth.v1.authservice/validatetoken", "0"));
    assertTrue(doubled.get(0).startsWith("2 spans auth"), doubled.toString());
  }

  @Test
  void aSpanOfAnotherTraceFails() {
    String other = SERVER.replace(TRACE, "0af7651916cd43dd8448eb211c80319c");
    assertTrue(judge(other, CHECK, AUTH).get(0).contains("has trace id 0af7651916cd43dd8448eb211c80319c"));
  }

  @Test
  void traceContextIdsAreHexOfTheirLengthOnePerLabel() {
    Values.Scope s = new Values.Scope();
    JsonNode trace = Values.eval(JSON.readTree("\"${traceid:a}\""), s);
    JsonNode span = Values.eval(JSON.readTree("\"${spanid:a}\""), s);
    assertTrue(trace.asString().matches("[0-9a-f]{32}"), trace.asString());
    assertTrue(span.asString().matches("[0-9a-f]{16}"), span.asString());
    assertEquals(JsonNodeFactory.instance.stringNode("00-" + trace.asString() + "-" + span.asString() + "-01"),
        Values.eval(JSON.readTree("\"00-${traceid:a}-${spanid:a}-01\""), s));
    assertTrue(!trace.equals(Values.eval(JSON.readTree("\"${traceid:b}\""), s)));
  }
}
