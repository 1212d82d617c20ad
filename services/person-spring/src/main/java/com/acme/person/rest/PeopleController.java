package com.acme.person.rest;

import com.acme.person.domain.PersonDto;
import com.acme.person.mapping.PersonMapper;
import com.acme.person.service.PersonRegistry;
import com.acme.person.v1.GetPersonRequest;
import com.acme.person.v1.RegisterPersonRequest;
import com.acme.person.validation.RequestValidator;
import java.net.URI;
import java.util.UUID;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The REST/JSON twin of RegisterPerson and GetPerson, for side-by-side measurements: the same
 * DTOs, the same registry, and the same buf.validate rules, checked on the request message the
 * DTO maps to. An optional Idempotency-Key header plays request_id.
 */
@RestController
@RequestMapping("/api/people")
public class PeopleController {

  private final PersonRegistry registry;
  private final PersonMapper mapper;
  private final RequestValidator validator;

  public PeopleController(PersonRegistry registry, PersonMapper mapper, RequestValidator validator) {
    this.registry = registry;
    this.mapper = mapper;
    this.validator = validator;
  }

  @PostMapping
  public ResponseEntity<PersonDto> register(
      @RequestHeader(name = "Idempotency-Key", required = false) String idempotencyKey,
      @RequestBody PersonDto person) {
    // Without a key the request_id only satisfies the rules; the person is stored once per call.
    String requestId = idempotencyKey != null ? idempotencyKey : UUID.randomUUID().toString();
    validator.check(
        RegisterPersonRequest.newBuilder()
            .setRequestId(requestId)
            .setPerson(mapper.toProto(person))
            .build(),
        "");
    PersonDto stored = registry.register(idempotencyKey, person);
    return ResponseEntity.created(URI.create("/api/people/" + stored.id())).body(stored);
  }

  @GetMapping("/{id}")
  public PersonDto get(@PathVariable String id) {
    validator.check(GetPersonRequest.newBuilder().setId(id).build(), "");
    return registry.get(id);
  }
}
