package com.acme.person;

import static com.acme.person.ServiceOnDataFolder.start;
import static com.acme.person.ServiceOnDataFolder.stub;
import static org.assertj.core.api.Assertions.assertThat;

import com.acme.person.v1.GetPersonRequest;
import com.acme.person.v1.Person;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The embedded default keeps its data: a person registered before a restart is there after it.
 * The service runs with its own defaults (no datasource setting), only its data folder chosen.
 */
class DurableDefaultTest {

  @Test
  void aPersonRegisteredBeforeARestartIsReadAfterIt(@TempDir Path data) throws Exception {
    Person stored;
    try (ConfigurableApplicationContext first = start(data)) {
      stored = stub(first).registerPerson(People.register(People.person("survives a restart", 41))).getPerson();
    }
    assertThat(Files.list(data).map(p -> p.getFileName().toString())).contains("person.mv.db");
    try (ConfigurableApplicationContext second = start(data)) {
      Person read = stub(second).getPerson(GetPersonRequest.newBuilder().setId(stored.getId()).build()).getPerson();
      assertThat(read).isEqualTo(stored);
    }
  }
}
