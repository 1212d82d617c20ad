package com.acme.person.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.acme.person.domain.AddressDto;
import com.acme.person.domain.PersonDto;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal gives back exactly what was appended; a record cut short at its end (a write a
 * crash interrupted) is left out, and anything else that is not a record is damage.
 */
class JournalTest {

  private static StoredPerson person(long seq, String requestId) {
    Instant created = Instant.now().truncatedTo(ChronoUnit.MICROS);
    PersonDto p = new PersonDto(UUID.randomUUID().toString(), "Zoë 😀 " + seq, 30, List.of("chess", "go"),
        seq % 2 == 0 ? new AddressDto("Zürich", seq % 4 == 0 ? null : "8001") : null, created);
    return new StoredPerson(seq, p, requestId, requestId == null ? null : "00112233445566778899aabbccddeeff");
  }

  /** A person of about 600 KB: 300 hobbies of 2,000 characters. */
  private static StoredPerson large(long seq) {
    List<String> hobbies = java.util.Collections.nCopies(300, "x".repeat(2000));
    PersonDto p = new PersonDto(UUID.randomUUID().toString(), "large " + seq, 40, hobbies, null,
        Instant.now().truncatedTo(ChronoUnit.MICROS));
    return new StoredPerson(seq, p, null, null);
  }

  @Test
  void whatIsAppendedIsReadBack(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("person.journal");
    List<StoredPerson> first = List.of(person(1, UUID.randomUUID().toString()), person(2, null));
    List<StoredPerson> second = List.of(person(3, null), person(4, UUID.randomUUID().toString()));
    try (Journal journal = new Journal(file)) {
      journal.append(JournalCodec.records(first), false);
      journal.append(JournalCodec.records(second), true);
    }
    JournalReader.Contents contents = JournalReader.read(file);
    assertThat(contents.torn()).isFalse();
    assertThat(contents.people()).containsExactly(first.get(0), first.get(1), second.get(0), second.get(1));
  }

  @Test
  void aGroupLargerThanOneWriteIsWrittenWhole(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("person.journal");
    // Three people of about 600 KB each: the group is written in several writes, one of them
    // ending inside a record.
    List<StoredPerson> large = List.of(large(1), large(2), large(3));
    ByteBuffer records = JournalCodec.records(large);
    int bytes = records.remaining();
    assertThat(bytes).isGreaterThan(2 * Journal.MAX_WRITE_BYTES);
    try (Journal journal = new Journal(file)) {
      journal.append(JournalCodec.records(List.of(person(0, null))), false);
      journal.append(records, false);
      journal.append(JournalCodec.records(List.of(person(4, null))), false);
    }
    JournalReader.Contents contents = JournalReader.read(file);
    assertThat(contents.torn()).isFalse();
    assertThat(contents.people()).hasSize(5);
    assertThat(contents.people().subList(1, 4)).containsExactlyElementsOf(large);
  }

  @Test
  void noWriteTakesADirectBufferLargerThanOneSlice(@TempDir Path dir) throws Exception {
    // The JDK copies a heap buffer into a direct one of the write's size and keeps it for the
    // thread (this test's JVM caches any size), so in a fresh thread the direct memory an append
    // leaves behind is the largest single write it made. Unsliced, it would be the group's size.
    ByteBuffer records = JournalCodec.records(List.of(large(1), large(2)));
    assertThat(records.hasArray()).as("a heap buffer, as the group commit hands over").isTrue();
    int bytes = records.remaining();
    assertThat(bytes).isGreaterThan(4 * Journal.MAX_WRITE_BYTES);
    java.lang.management.BufferPoolMXBean direct =
        java.lang.management.ManagementFactory.getPlatformMXBeans(java.lang.management.BufferPoolMXBean.class).stream()
            .filter(pool -> pool.getName().equals("direct"))
            .findFirst()
            .orElseThrow();
    long[] grew = new long[1];
    Throwable[] failed = new Throwable[1];
    Thread writer = new Thread(() -> {
      try (Journal journal = new Journal(dir.resolve("person.journal"))) {
        long before = direct.getMemoryUsed();
        journal.append(records, false);
        grew[0] = direct.getMemoryUsed() - before;
      } catch (Throwable e) {
        failed[0] = e;
      }
    });
    writer.start();
    writer.join();
    assertThat(failed[0]).isNull();
    assertThat(Files.size(dir.resolve("person.journal"))).isEqualTo(bytes);
    // Other threads of the test's JVM may take or free direct memory meanwhile: the bound has room
    // for that, and an unsliced write (over four slices) would still be far beyond it.
    assertThat(grew[0]).as("direct memory the append left cached").isLessThan(2L * Journal.MAX_WRITE_BYTES);
  }

  @Test
  void aRecordCutShortAtTheEndIsLeftOut(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("person.journal");
    ByteBuffer records = JournalCodec.records(List.of(person(1, null), person(2, null)));
    byte[] bytes = new byte[records.remaining()];
    records.get(bytes);
    Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length - 7));
    JournalReader.Contents contents = JournalReader.read(file);
    assertThat(contents.torn()).isTrue();
    assertThat(contents.people()).hasSize(1);
  }

  @Test
  void aDamagedRecordFollowedByMoreIsDamage(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("person.journal");
    ByteBuffer records = JournalCodec.records(List.of(person(1, null), person(2, null), person(3, null)));
    byte[] bytes = new byte[records.remaining()];
    records.get(bytes);
    bytes[20] ^= 0x40; // inside the first record's payload: its checksum no longer matches
    Files.write(file, bytes);
    assertThatThrownBy(() -> JournalReader.read(file))
        .isInstanceOf(StoreDamagedException.class)
        .hasMessageContaining(file.toString());
  }

  @Test
  void rotationMovesTheJournalAsideAndStartsAnEmptyOne(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("person.journal");
    try (Journal journal = new Journal(file)) {
      journal.append(JournalCodec.records(List.of(person(1, null))), false);
      assertThat(journal.rotate(false)).isTrue();
      assertThat(journal.rotate(false)).as("the old part is still there").isFalse();
      journal.append(JournalCodec.records(List.of(person(2, null))), false);
      assertThat(Journal.existing(file)).hasSize(2);
      assertThat(JournalReader.read(Journal.existing(file).get(0)).people()).extracting(StoredPerson::seq).containsExactly(1L);
      assertThat(JournalReader.read(file).people()).extracting(StoredPerson::seq).containsExactly(2L);
      journal.dropOld();
      journal.clear();
    }
    assertThat(Files.size(file)).isZero();
  }
}
