package com.acme.person.service;

import build.buf.validate.FieldPath;
import build.buf.validate.FieldPathElement;
import build.buf.validate.Violation;
import build.buf.validate.Violations;
import com.acme.person.domain.PersonDto;
import com.acme.person.domain.PersonFilter;
import com.acme.person.store.PageCursor;
import com.acme.person.store.PageTokenKey;
import com.acme.person.v1.ListPeopleRequest;
import com.acme.person.validation.InvalidRequestException;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Base64;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.springframework.stereotype.Component;

/**
 * ListPeople's page tokens: where the last page ended (the last person's created_at and id) and
 * which query it belongs to (a fingerprint of name_contains, min_age and max_age), signed with
 * the store's key (HMAC-SHA256). A token is opaque to clients; one the service did not make, or
 * made for another query, is INVALID_ARGUMENT. The page size may change from page to page.
 */
@Component
public class PageTokens {
  private static final byte VERSION = 1;
  private static final int QUERY_BYTES = 8;
  private static final int MAC_BYTES = 16;
  private static final int LENGTH = 1 + 8 + 16 + QUERY_BYTES + MAC_BYTES;

  private final SecretKeySpec key;

  public PageTokens(PageTokenKey key) {
    this.key = new SecretKeySpec(key.secret(), "HmacSHA256");
  }

  /** The token of the page that starts after last, for the query filter. */
  public String after(PersonDto last, PersonFilter filter) {
    UUID id = UUID.fromString(last.id());
    ByteBuffer b = ByteBuffer.allocate(LENGTH);
    b.put(VERSION);
    b.putLong(ChronoUnit.MICROS.between(Instant.EPOCH, last.createdAt()));
    b.putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits());
    b.put(query(filter));
    b.put(mac(b.array(), LENGTH - MAC_BYTES));
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b.array());
  }

  /** Where the page that token names starts, for the query filter. */
  public PageCursor cursor(String token, PersonFilter filter) {
    byte[] bytes;
    try {
      bytes = Base64.getUrlDecoder().decode(token);
    } catch (IllegalArgumentException e) {
      throw invalid("page_token.valid", "is not a page token this service made");
    }
    if (bytes.length != LENGTH || bytes[0] != VERSION
        || !MessageDigest.isEqual(mac(bytes, LENGTH - MAC_BYTES), Arrays.copyOfRange(bytes, LENGTH - MAC_BYTES, LENGTH))) {
      throw invalid("page_token.valid", "is not a page token this service made");
    }
    ByteBuffer b = ByteBuffer.wrap(bytes, 1, LENGTH - 1);
    Instant createdAt = Instant.EPOCH.plus(b.getLong(), ChronoUnit.MICROS);
    UUID id = new UUID(b.getLong(), b.getLong());
    byte[] query = new byte[QUERY_BYTES];
    b.get(query);
    if (!MessageDigest.isEqual(query, query(filter))) {
      throw invalid("page_token.query", "belongs to another query (name_contains, min_age and max_age must stay the same)");
    }
    return new PageCursor(createdAt, id.toString());
  }

  /** page and page_token together: a page number counts from the start, a token from a page's end. */
  public static InvalidRequestException pageWithToken() {
    return invalid("page_token.without_page", "cannot be combined with page (leave page 0)");
  }

  private static byte[] query(PersonFilter filter) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      byte[] name = (filter.nameContains() == null ? "" : filter.nameContains()).getBytes(StandardCharsets.UTF_8);
      sha.update(ByteBuffer.allocate(4).putInt(name.length).array());
      sha.update(name);
      sha.update(ByteBuffer.allocate(8)
          .putInt(filter.minAge() == null ? -1 : filter.minAge())
          .putInt(filter.maxAge() == null ? -1 : filter.maxAge())
          .array());
      return Arrays.copyOf(sha.digest(), QUERY_BYTES);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  private byte[] mac(byte[] data, int length) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      mac.update(data, 0, length);
      return Arrays.copyOf(mac.doFinal(), MAC_BYTES);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every JVM has HmacSHA256", e);
    }
  }

  private static InvalidRequestException invalid(String ruleId, String message) {
    Violation violation = Violation.newBuilder()
        .setField(FieldPath.newBuilder().addElements(FieldPathElement.newBuilder()
            .setFieldName("page_token")
            .setFieldNumber(ListPeopleRequest.PAGE_TOKEN_FIELD_NUMBER)
            .setFieldType(FieldDescriptorProto.Type.TYPE_STRING)))
        .setRuleId(ruleId)
        .setMessage(message)
        .build();
    return new InvalidRequestException("page_token " + message, Violations.newBuilder().addViolations(violation).build());
  }
}
