package com.acme.person.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.person.domain.PersonDto;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The memory bound of RegisterPeople: however many people stream through, the writer holds at
 * most one batch, and hands the sink full batches (the last one may be partial).
 */
class PeopleBatchWriterTest {

  private static final IdentityAssigner IDENTITY = new IdentityAssigner(Clock.systemUTC());

  @Test
  void oneMillionPeopleNeverHoldMoreThanOneBatch() {
    List<Integer> batchSizes = new ArrayList<>();
    PeopleBatchWriter writer = new PeopleBatchWriter(500, 10_000, (batch, first) -> batchSizes.add(batch.size()), IDENTITY);
    PersonDto person = new PersonDto(null, "p", 1, List.of(), null, null);

    for (int i = 0; i < 1_000_123; i++) {
      writer.add(person);
    }
    writer.flush();

    assertThat(writer.count()).isEqualTo(1_000_123);
    assertThat(batchSizes).hasSize(2001);
    assertThat(batchSizes.subList(0, 2000)).allMatch(n -> n == 500);
    assertThat(batchSizes.get(2000)).isEqualTo(123);
    assertThat(writer.ids()).as("ids are dropped past the limit, not kept").isNull();
  }

  @Test
  void storedPeopleGetIdsAndTimesAndIdsAreKeptUpToTheLimit() {
    List<PersonDto> written = new ArrayList<>();
    PeopleBatchWriter writer = new PeopleBatchWriter(3, 5, (batch, first) -> written.addAll(batch), IDENTITY);
    for (int i = 0; i < 5; i++) {
      writer.add(new PersonDto(null, "p" + i, i, List.of(), null, null));
    }
    assertThat(written).hasSize(3);
    writer.flush();
    assertThat(written).hasSize(5).allSatisfy(p -> {
      assertThat(p.id()).isNotNull();
      assertThat(p.createdAt()).isNotNull();
    });
    assertThat(writer.ids()).containsExactlyElementsOf(written.stream().map(PersonDto::id).toList());
    writer.flush();
    assertThat(written).as("flushing an empty batch writes nothing").hasSize(5);
  }

  @Test
  void eachBatchComesWithThePositionOfItsFirstPerson() {
    List<Long> firsts = new ArrayList<>();
    PeopleBatchWriter writer = new PeopleBatchWriter(3, 5, (batch, first) -> firsts.add(first), IDENTITY);
    for (int i = 0; i < 7; i++) {
      writer.add(new PersonDto(null, "p" + i, i, List.of(), null, null));
    }
    writer.flush();
    assertThat(firsts).containsExactly(0L, 3L, 6L);
  }
}
