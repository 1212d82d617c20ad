package com.acme.compat.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** containers.env's sizes read as docker reads them. */
class DataSizesTest {

  @Test
  void readsDockersNotation() {
    assertEquals(512L << 20, DataSizes.bytes("512m"));
    assertEquals(1L << 30, DataSizes.bytes("1g"));
    assertEquals(64L << 10, DataSizes.bytes("64K"));
    assertEquals(1000L, DataSizes.bytes("1000"));
  }

  @Test
  void refusesWhatIsNotASize() {
    assertThrows(IllegalArgumentException.class, () -> DataSizes.bytes("1 gig"));
  }
}
