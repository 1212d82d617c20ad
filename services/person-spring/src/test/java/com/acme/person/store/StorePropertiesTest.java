package com.acme.person.store;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A group bound below one would make empty groups, whose leader loops without answering anyone. */
class StorePropertiesTest {

  @Test
  void groupBoundsBelowOneAreRefusedWhenTheSettingsAreRead() {
    assertThatThrownBy(() -> new StoreProperties(false, 0, 4_194_304, 65_536))
        .hasMessageContaining("STORE_GROUP_SIZE and STORE_GROUP_CHARS must be at least 1, not 0 and 4194304");
    assertThatThrownBy(() -> new StoreProperties(false, 256, 0, 65_536))
        .hasMessageContaining("not 256 and 0");
  }
}
