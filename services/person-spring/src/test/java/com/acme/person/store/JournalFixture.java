package com.acme.person.store;

import com.acme.person.domain.PersonDto;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Writes journal records as the store does, for tests that put a journal where one was left. */
public final class JournalFixture {
  private JournalFixture() {}

  public static void append(Path journal, long seq, PersonDto person) throws IOException {
    try (Journal j = new Journal(journal)) {
      j.append(JournalCodec.records(List.of(new StoredPerson(seq, person, null, null))), false);
    }
  }
}
