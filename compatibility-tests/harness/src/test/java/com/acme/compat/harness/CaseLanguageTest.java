package com.acme.compat.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/** The case language's values and expectations (README.md, "Cases"): what passes, what fails. */
class CaseLanguageTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private static JsonNode json(String text) {
    return JSON.readTree(text);
  }

  private static Values.Scope scope() {
    Values.Scope scope = new Values.Scope();
    scope.put("run", JsonNodeFactory.instance.stringNode("r1"));
    scope.put("saved", json("{\"response\":{\"ids\":[\"a\",\"b\"],\"person\":{\"id\":\"x\",\"age\":3}},"
        + "\"list\":[{\"p\":{\"id\":1}},{\"p\":{\"id\":2}}]}"));
    return scope;
  }

  @Test
  void referencesKeepTheirTypeAloneAndBecomeTextInsideText() {
    Values.Scope s = scope();
    assertEquals(json("{\"id\":\"x\",\"age\":3}"), Values.eval(json("\"${saved.response.person}\""), s));
    assertEquals(json("\"r1 cs b\""), Values.eval(json("\"${run} cs ${saved.response.ids.1}\""), s));
    assertEquals(json("[1,2]"), Values.eval(json("\"${saved.list.*.p.id}\""), s));
    assertEquals(json("\"0007\""), Values.eval(json("\"${n:%04d}\""), s.with("n", JsonNodeFactory.instance.numberNode(7))));
    assertThrows(IllegalArgumentException.class, () -> Values.eval(json("\"${nothing.here}\""), s));
    assertThrows(IllegalArgumentException.class, () -> Values.eval(json("\"${saved.response.missing}\""), s));
  }

  @Test
  void aUuidLabelGivesOneUuidPerCase() {
    Values.Scope s = scope();
    JsonNode a = Values.eval(json("\"${uuid:a}\""), s);
    assertEquals(a, Values.eval(json("\"${uuid:a}\""), s.with("other", JsonNodeFactory.instance.nullNode())));
    assertTrue(!a.equals(Values.eval(json("\"${uuid:b}\""), s)));
    // Without a label, a new one each time.
    assertTrue(!Values.eval(json("\"${uuid}\""), s).equals(Values.eval(json("\"${uuid}\""), s)));
  }

  @Test
  void generators() {
    Values.Scope s = scope();
    assertEquals(json("[{\"age\":0},{\"age\":1}]"), Values.eval(json("{\"$for\":\"i\",\"to\":2,\"each\":{\"age\":\"${i}\"}}"), s));
    assertEquals(json("\"xxx\""), Values.eval(json("{\"$repeat\":\"x\",\"times\":3}"), s));
    assertEquals(json("[\"a\",\"b\",1,2]"), Values.eval(json("{\"$concat\":[\"${saved.response.ids}\",\"${saved.list.*.p.id}\"]}"), s));
    assertEquals(json("\"e\\u0301\""), Values.eval(json("{\"$nfd\":\"\\u00e9\"}"), s));
    // An NFD form equal to its input would make a case prove nothing.
    assertThrows(IllegalArgumentException.class, () -> Values.eval(json("{\"$nfd\":\"abc\"}"), s));
  }

  @Test
  void plainObjectsAndListsMustMatchExactly() {
    assertEquals(List.of(), Expect.differences(json("{\"a\":1,\"b\":[\"x\"]}"), json("{\"a\":1,\"b\":[\"x\"]}")));
    // A field the case does not name must be absent (at its default).
    assertEquals(1, Expect.differences(json("{\"a\":1}"), json("{\"a\":1,\"b\":2}")).size());
    assertEquals(1, Expect.differences(json("{\"a\":1,\"b\":2}"), json("{\"a\":1}")).size());
    assertEquals(1, Expect.differences(json("[1,2]"), json("[1]")).size());
    assertEquals(2, Expect.differences(json("[1,2]"), json("[2,1]")).size());
    // 64-bit integers are strings in JSON.
    assertEquals(List.of(), Expect.differences(json("{\"count\":25}"), json("{\"count\":\"25\"}")));
    assertEquals(1, Expect.differences(json("{\"count\":25}"), json("{\"count\":\"26\"}")).size());
  }

  @Test
  void matchers() {
    assertEquals(List.of(), Expect.differences(json("\"$uuid\""), json("\"123e4567-e89b-12d3-a456-426614174000\"")));
    assertEquals(1, Expect.differences(json("\"$uuid\""), json("\"not-a-uuid\"")).size());
    assertEquals(1, Expect.differences(json("{\"a\":\"$any\"}"), json("{}")).size());
    assertEquals(1, Expect.differences(json("\"$future\""), json("\"2001-01-01T00:00:00Z\"")).size());
    assertEquals(List.of(), Expect.differences(json("{\"$partial\":{\"a\":1}}"), json("{\"a\":1,\"b\":2}")));
    assertEquals(1, Expect.differences(json("{\"$merge\":{\"a\":1},\"b\":\"$any\"}"), json("{\"a\":1}")).size());
    assertEquals(List.of(), Expect.differences(json("{\"$count\":2,\"$distinct\":2}"), json("[\"a\",\"b\"]")));
    assertEquals(1, Expect.differences(json("{\"$distinct\":2}"), json("[\"a\",\"a\"]")).size());
    assertEquals(List.of(), Expect.differences(json("{\"$sameSet\":[1,2]}"), json("[2,1]")));
    assertEquals(1, Expect.differences(json("{\"$sameSet\":[1,2]}"), json("[2,2,1]")).size());
    assertEquals(1, Expect.differences(json("{\"$contains\":\"ROLE_ADMIN\"}"), json("[\"ROLE_USER\"]")).size());
    assertEquals(1, Expect.differences(json("{\"$nondecreasing\":\"t\"}"),
        json("[{\"t\":\"2026-01-01T00:00:00.5Z\"},{\"t\":\"2026-01-01T00:00:00Z\"}]")).size());
    assertEquals(List.of(), Expect.differences(json("{\"$nondecreasing\":\"t\"}"),
        json("[{\"t\":\"2026-01-01T00:00:00Z\"},{\"t\":\"2026-01-01T00:00:00.5Z\"}]")));
    JsonNode violation = json("[{\"field\":{\"elements\":[{\"fieldName\":\"person\"},{\"fieldName\":\"age\"}]},\"ruleId\":\"int32.gte_lte\"}]");
    assertEquals(List.of(), Expect.differences(json("{\"$violations\":[\"person.age/int32.gte_lte\"]}"), violation));
    assertEquals(1, Expect.differences(json("{\"$violations\":[\"person.name/string.min_len\"]}"), violation).size());
    assertThrows(IllegalArgumentException.class, () -> Expect.differences(json("\"$nonsense\""), json("1")));
  }
}
