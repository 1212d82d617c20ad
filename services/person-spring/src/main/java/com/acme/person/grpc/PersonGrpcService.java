package com.acme.person.grpc;

import com.acme.person.config.PersonProperties;
import com.acme.person.domain.PersonDto;
import com.acme.person.error.ErrorMapper;
import com.acme.person.mapping.PersonMapper;
import com.acme.person.metrics.Phases;
import com.acme.person.service.PersonRegistry;
import com.acme.person.v1.GetPersonRequest;
import com.acme.person.v1.GetPersonResponse;
import com.acme.person.v1.ListPeopleRequest;
import com.acme.person.v1.ListPeopleResponse;
import com.acme.person.v1.PersonServiceGrpc;
import com.acme.person.v1.RegisterPeopleRequest;
import com.acme.person.v1.RegisterPeopleResponse;
import com.acme.person.v1.RegisterPersonRequest;
import com.acme.person.v1.RegisterPersonResponse;
import com.acme.person.v1.SyncPeopleRequest;
import com.acme.person.v1.SyncPeopleResponse;
import com.acme.person.validation.RequestValidator;
import io.grpc.BindableService;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.List;
import org.springframework.stereotype.Service;

/**
 * acme.person.v1.PersonService: a thin adapter from gRPC to PersonRegistry. Every call reaches it
 * through CallBoundary, authenticated, decoded and validated; exceptions become status codes in
 * ErrorMapper. The streaming shapes each have their own class.
 */
@Service
public class PersonGrpcService implements PersonServiceGrpc.AsyncService, BindableService {

  private final PersonRegistry registry;
  private final PersonMapper mapper;
  private final RequestValidator validator;
  private final ErrorMapper errors;
  private final RegisterPeopleStreams uploads;
  private final PersonProperties properties;
  private final Phases phases;
  private final CallBoundary boundary;

  public PersonGrpcService(
      PersonRegistry registry,
      PersonMapper mapper,
      RequestValidator validator,
      ErrorMapper errors,
      RegisterPeopleStreams uploads,
      PersonProperties properties,
      Phases phases,
      CallBoundary boundary) {
    this.phases = phases;
    this.registry = registry;
    this.mapper = mapper;
    this.validator = validator;
    this.errors = errors;
    this.uploads = uploads;
    this.properties = properties;
    this.boundary = boundary;
  }

  /**
   * Every method, served through CallBoundary. This is why the class implements AsyncService
   * rather than extending PersonServiceImplBase, whose bindService() is final.
   */
  @Override
  public ServerServiceDefinition bindService() {
    return boundary.serve(PersonServiceGrpc.getServiceDescriptor(), List.of(
        Rpc.unary(PersonServiceGrpc.getRegisterPersonMethod(), this::registerPerson),
        Rpc.unary(PersonServiceGrpc.getGetPersonMethod(), this::getPerson),
        Rpc.serverStreaming(PersonServiceGrpc.getListPeopleMethod(), this::listPeople),
        Rpc.clientStreaming(PersonServiceGrpc.getRegisterPeopleMethod(), this::registerPeople),
        // SyncPeople answers an invalid item with its own error and goes on.
        Rpc.bidiStreaming(PersonServiceGrpc.getSyncPeopleMethod(), this::syncPeople).unvalidated()));
  }

  @Override
  public void registerPerson(
      RegisterPersonRequest request, StreamObserver<RegisterPersonResponse> response) {
    long start = System.nanoTime();
    PersonDto person = mapper.fromProto(request.getPerson());
    long mapped = phases.since(start, "RegisterPerson", "map");
    PersonDto registered = registry.register(request.getRequestId(), person);
    long stored = phases.since(mapped, "RegisterPerson", "store");
    RegisterPersonResponse answer = RegisterPersonResponse.newBuilder().setPerson(mapper.toProto(registered)).build();
    phases.since(stored, "RegisterPerson", "map");
    response.onNext(answer);
    response.onCompleted();
  }

  @Override
  public StreamObserver<RegisterPeopleRequest> registerPeople(
      StreamObserver<RegisterPeopleResponse> response) {
    return RegisterPeopleCall.start(
        (ServerCallStreamObserver<RegisterPeopleResponse>) response, registry, mapper, errors, uploads);
  }

  @Override
  public void getPerson(GetPersonRequest request, StreamObserver<GetPersonResponse> response) {
    long start = System.nanoTime();
    PersonDto person = registry.get(request.getId());
    long found = phases.since(start, "GetPerson", "store");
    GetPersonResponse answer = GetPersonResponse.newBuilder().setPerson(mapper.toProto(person)).build();
    phases.since(found, "GetPerson", "map");
    response.onNext(answer);
    response.onCompleted();
  }

  @Override
  public void listPeople(ListPeopleRequest request, StreamObserver<ListPeopleResponse> response) {
    new ListPeopleStreamer(
            (ServerCallStreamObserver<ListPeopleResponse>) response,
            registry,
            mapper,
            errors,
            request,
            properties.listPeople().chunkSize())
        .start();
  }

  @Override
  public StreamObserver<SyncPeopleRequest> syncPeople(StreamObserver<SyncPeopleResponse> response) {
    return new SyncPeopleCall(
        (ServerCallStreamObserver<SyncPeopleResponse>) response, registry, mapper, validator, errors);
  }
}
