package com.acme.person.store;

import com.acme.person.domain.PersonDto;
import com.acme.person.domain.PersonFilter;
import java.util.List;

/**
 * How a store reads a page of ListPeople: at most max people matching the filter, in
 * (created_at, id) order, after the cursor (null: from the page's start, after skipping
 * filter.offset() matches). A page read by cursor costs the same however deep it is.
 */
interface PersonPages {
  List<PersonDto> find(PersonFilter filter, PageCursor after, int max);
}
