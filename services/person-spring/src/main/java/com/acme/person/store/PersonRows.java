package com.acme.person.store;

import com.acme.person.domain.AddressDto;
import com.acme.person.domain.PersonDto;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

/** A person's row read back, and the forms of a few values both databases agree on. */
final class PersonRows {
  private PersonRows() {}

  static final String COLUMNS = "id, name, age, city, zip_code, hobbies, created_at";

  /** The person in the current row (the COLUMNS, by name). */
  static PersonDto person(ResultSet rs) throws SQLException {
    String city = rs.getString("city");
    return new PersonDto(
        rs.getObject("id", UUID.class).toString(),
        rs.getString("name"),
        rs.getInt("age"),
        strings(rs.getArray("hobbies")),
        city == null ? null : new AddressDto(city, rs.getString("zip_code")),
        rs.getObject("created_at", OffsetDateTime.class).toInstant());
  }

  static List<String> strings(Array array) throws SQLException {
    if (array == null) {
      return null;
    }
    Object[] values = (Object[]) array.getArray();
    List<String> out = new ArrayList<>(values.length);
    for (Object v : values) {
      out.add(v.toString());
    }
    return out;
  }

  static UUID uuid(String id) {
    return UUID.fromString(id);
  }

  static byte[] bytes(String hex) {
    return HexFormat.of().parseHex(hex);
  }

  static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }
}
