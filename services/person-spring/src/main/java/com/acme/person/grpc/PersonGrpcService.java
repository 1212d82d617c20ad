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
import java.util.concurrent.Executor;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.stereotype.Service;

/**
 * acme.person.v1.PersonService: a thin adapter from gRPC to PersonRegistry. Authentication and
 * validation happen before a call gets here (interceptors); exceptions become status codes in
 * ErrorMapper. The streaming shapes each have their own class.
 */
@Service
public class PersonGrpcService implements PersonServiceGrpc.AsyncService, BindableService {

  private final PersonRegistry registry;
  private final PersonMapper mapper;
  private final RequestValidator validator;
  private final ErrorMapper errors;
  private final Executor streamWorkers;
  private final PersonProperties properties;
  private final Phases phases;

  public PersonGrpcService(
      PersonRegistry registry,
      PersonMapper mapper,
      RequestValidator validator,
      ErrorMapper errors,
      @Qualifier("registerPeopleWorkers") Executor streamWorkers,
      PersonProperties properties,
      Phases phases) {
    this.phases = phases;
    this.registry = registry;
    this.mapper = mapper;
    this.validator = validator;
    this.errors = errors;
    this.streamWorkers = streamWorkers;
    this.properties = properties;
  }

  /**
   * The generated service, with its requests decoded by DecodingInterceptor inside the
   * interceptor chain (see UndecodedRequests). This is why the class implements AsyncService
   * rather than extending PersonServiceImplBase, whose bindService() is final.
   */
  @Override
  public ServerServiceDefinition bindService() {
    return UndecodedRequests.of(PersonServiceGrpc.bindService(this));
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
        (ServerCallStreamObserver<RegisterPeopleResponse>) response,
        registry,
        mapper,
        errors,
        streamWorkers,
        properties.registerPeople().window());
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
