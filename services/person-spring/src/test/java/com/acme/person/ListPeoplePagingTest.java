package com.acme.person;

import static com.acme.person.People.person;
import static com.acme.person.People.register;
import static com.acme.person.People.registerMany;
import static com.acme.person.People.uniqueName;
import static com.acme.person.PersonServiceTest.rejected;
import static org.assertj.core.api.Assertions.assertThat;

import build.buf.validate.Violation;
import com.acme.person.v1.ListPeopleRequest;
import com.acme.person.v1.ListPeopleResponse;
import com.acme.person.v1.Person;
import com.acme.person.v1.RegisterPeopleRequest;
import com.acme.person.v1.RegisterPeopleResponse;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * ListPeople's pages through the real server: page tokens continue where a page ended, with the
 * same people in the same order as one long page; a token that is forged, damaged, for another
 * query or sent with a page is INVALID_ARGUMENT naming page_token; name_contains finds names by
 * any substring, trigram-served or not.
 */
class ListPeoplePagingTest extends ServiceTestBase {

  @Test
  void pageTokensWalkTheListingInOrderAndEndWithoutAToken() throws Exception {
    String name = uniqueName("paged");
    storeStream(name, 25);
    List<String> whole = names(list(request(name).setLimit(100)));
    assertThat(whole).hasSize(25);

    List<String> walked = new ArrayList<>();
    List<Integer> sizes = new ArrayList<>();
    String token = "";
    do {
      List<ListPeopleResponse> page = list(request(name).setLimit(10).setPageToken(token));
      sizes.add(page.size());
      walked.addAll(names(page));
      // Only the last message of a page may carry the token.
      for (int i = 0; i < page.size() - 1; i++) {
        assertThat(page.get(i).getNextPageToken()).isEmpty();
      }
      token = page.isEmpty() ? "" : page.get(page.size() - 1).getNextPageToken();
    } while (!token.isEmpty());
    assertThat(sizes).containsExactly(10, 10, 5);
    assertThat(walked).isEqualTo(whole);
  }

  @Test
  void aPageEndingWithTheLastMatchCarriesNoToken() throws Exception {
    String name = uniqueName("exact");
    storeStream(name, 20);
    List<ListPeopleResponse> first = list(request(name).setLimit(10));
    String token = first.get(9).getNextPageToken();
    assertThat(token).isNotEmpty();
    List<ListPeopleResponse> second = list(request(name).setLimit(10).setPageToken(token));
    assertThat(second).hasSize(10);
    assertThat(second.get(9).getNextPageToken()).isEmpty();
  }

  @Test
  void theLimitMayChangeFromPageToPageAndPageStillWorks() throws Exception {
    String name = uniqueName("sizes");
    storeStream(name, 12);
    List<String> whole = names(list(request(name)));
    List<ListPeopleResponse> first = list(request(name).setLimit(5));
    List<ListPeopleResponse> rest = list(request(name).setLimit(100).setPageToken(first.get(4).getNextPageToken()));
    List<String> walked = new ArrayList<>(names(first));
    walked.addAll(names(rest));
    assertThat(walked).isEqualTo(whole);
    assertThat(names(list(request(name).setLimit(5).setPage(2)))).isEqualTo(whole.subList(10, 12));
  }

  @Test
  void aTokenOfAnotherQueryIsInvalidArgument() throws Exception {
    String name = uniqueName("other");
    storeStream(name, 3);
    String token = list(request(name).setLimit(1)).get(0).getNextPageToken();
    assertRefused(request(name).setLimit(1).setMinAge(1).setPageToken(token), "page_token.query");
    assertRefused(request(name + "x").setLimit(1).setPageToken(token), "page_token.query");
  }

  @Test
  void aForgedOrDamagedTokenIsInvalidArgument() throws Exception {
    String name = uniqueName("forged");
    storeStream(name, 3);
    String token = list(request(name).setLimit(1)).get(0).getNextPageToken();
    byte[] bytes = Base64.getUrlDecoder().decode(token);
    bytes[5] ^= 1; // another created_at, same signature
    String forged = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    assertRefused(request(name).setLimit(1).setPageToken(forged), "page_token.valid");
    assertRefused(request(name).setLimit(1).setPageToken("not a token at all"), "page_token.valid");
    assertRefused(request(name).setLimit(1).setPageToken(token.substring(0, token.length() - 2)), "page_token.valid");
  }

  @Test
  void aTokenWithAPageIsInvalidArgument() throws Exception {
    String name = uniqueName("both");
    storeStream(name, 3);
    String token = list(request(name).setLimit(1)).get(0).getNextPageToken();
    assertRefused(request(name).setLimit(1).setPage(1).setPageToken(token), "page_token.without_page");
  }

  @Test
  void nameContainsFindsAnySubstringIgnoringCase() {
    String tag = uniqueName("Ünï").replace("-", "");
    blocking().registerPerson(register(person("Ada " + tag + " Lovelace", 36)));
    blocking().registerPerson(register(person("Grace " + tag + " Hopper", 85)));
    blocking().registerPerson(register(person("Ådå " + tag + " Byron", 36)));
    assertThat(names(list(request(tag.toUpperCase()).setLimit(10)))).hasSize(3);
    assertThat(names(list(request(tag + " lOVE")))).containsExactly("Ada " + tag + " Lovelace");
    assertThat(names(list(request("ÅDÅ " + tag)))).containsExactly("Ådå " + tag + " Byron");
    assertThat(names(list(request(tag + " H")))).containsExactly("Grace " + tag + " Hopper");
    // One and two characters have no trigram: every name is checked in order.
    blocking().registerPerson(register(person("Zoë ʬʭ " + tag, 7)));
    assertThat(names(list(request("ʬʭ")))).containsExactly("Zoë ʬʭ " + tag);
    assertThat(names(list(request("ʭ")))).containsExactly("Zoë ʬʭ " + tag);
    assertThat(names(list(request(tag).setMinAge(36).setMaxAge(36)))).hasSize(2);
    assertThat(names(list(request(tag + " nobody")))).isEmpty();
  }

  private static ListPeopleRequest.Builder request(String nameContains) {
    return ListPeopleRequest.newBuilder().setNameContains(nameContains);
  }

  private List<ListPeopleResponse> list(ListPeopleRequest.Builder request) {
    List<ListPeopleResponse> out = new ArrayList<>();
    Iterator<ListPeopleResponse> it = blocking().listPeople(request.build());
    it.forEachRemaining(out::add);
    return out;
  }

  private static List<String> names(List<ListPeopleResponse> page) {
    return page.stream().map(r -> r.getPerson().getName()).toList();
  }

  private void assertRefused(ListPeopleRequest.Builder request, String ruleId) throws Exception {
    StatusRuntimeException e = rejected(() -> list(request));
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    List<Violation> violations = violationsOf(e).getViolationsList();
    assertThat(violations).hasSize(1);
    assertThat(violations.get(0).getRuleId()).isEqualTo(ruleId);
    assertThat(violations.get(0).getField().getElements(0).getFieldName()).isEqualTo("page_token");
  }

  /** count people named name-0…, stored by one stream (so they share nothing but the name). */
  private void storeStream(String name, int count) throws Exception {
    CompletableFuture<RegisterPeopleResponse> stored = new CompletableFuture<>();
    StreamObserver<RegisterPeopleRequest> out = async().registerPeople(new StreamObserver<>() {
      @Override public void onNext(RegisterPeopleResponse value) { stored.complete(value); }
      @Override public void onError(Throwable t) { stored.completeExceptionally(t); }
      @Override public void onCompleted() {}
    });
    for (int i = 0; i < count; i++) {
      Person p = person(name + "-" + i, i);
      out.onNext(registerMany(p));
    }
    out.onCompleted();
    assertThat(stored.get(30, TimeUnit.SECONDS).getCount()).isEqualTo(count);
  }
}
